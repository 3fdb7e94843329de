// The computer's levels, for players: from the server's table (GET /api/players,
// `level_details`: spec, label, description, measured Elo), never a copy of it. The levels are
// shown in the order of their measured strength (weakest first), by the server's label, with the
// server's sentence on how the level plays (a sentence of the client's for servers without one);
// the measured rating is available on demand (levelStrength).
import { api, type LevelInfo } from './api';
import { serverText, t } from './i18n';

export interface Level {
  spec: string;
  name: string;      // the server's label: "Easy"
  how: string;       // "Plays quickly and makes mistakes: ..."
  info: LevelInfo;
}

// How a player of this spec plays, in one sentence, for a server that does not say (by its kind
// of search; the budget of the Monte-Carlo levels from their `level=` parameter).
export function howItPlays(spec: string): string {
  const [kind, params = ''] = spec.split(':');
  const level = /(?:^|,)level=(\w+)/.exec(params)?.[1];
  switch (kind) {
    case 'random': return t('how.random');
    case 'greedy': return t('how.greedy');
    case 'star': return t('how.star');
    case 'mcts':
      if (level === 'easy') return t('how.mctsEasy');
      if (level === 'medium') return t('how.mctsMedium');
      if (level === 'hard') return t('how.mctsHard');
      return t('how.mcts');
    default: return t('how.other');
  }
}

// The levels in their order of measured strength (uncalibrated ones last, in the server's order).
export function orderLevels(details: LevelInfo[]): Level[] {
  const rated = details.filter((l) => l.games > 0).sort((a, b) => a.elo - b.elo);
  const all = [...rated, ...details.filter((l) => l.games <= 0)];
  return all.map((info) => ({ spec: info.spec, name: serverText(info.label || info.name), how: info.description?.trim() ? serverText(info.description.trim()) : howItPlays(info.spec), info }));
}

// "Elo ≈ 1361 (± 93), measured over 180 games", or "not yet measured".
export function levelStrength(l: Level): string {
  const i = l.info;
  if (i.games <= 0) return t('level.unmeasured');
  const pm = Math.round((i.elo_high - i.elo_low) / 2);
  return t('level.strength', { elo: Math.round(i.elo), pm, n: i.games });
}

let cached: Promise<Level[]> | null = null;
// The levels (once per page load; an empty list when the server cannot say).
export function loadLevels(): Promise<Level[]> {
  cached ??= api.players().then((p) => orderLevels(p.level_details ?? [])).catch(() => { cached = null; return []; });
  return cached;
}

// "Computer (Casual)" for a seat played by `spec` (the level's name when it is one of the
// server's levels, else just "Computer").
export function computerWords(spec: string | undefined, levels: Level[]): string {
  const l = levels.find((x) => x.spec === spec);
  return l ? t('level.computerAt', { level: l.name }) : t('level.computer');
}
