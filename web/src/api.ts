// The server's JSON API (docs/server.md), typed.

// The wire types are generated from the one schema (schema/wire.schema.json) by schema/gen.py into
// api.gen.ts (docs/schema.md); this file re-exports them under the same names and adds the calls.
export * from './api.gen';
import type { ChatList, CreatedGame, GameView, GamesList, Hint, JoinedGame, Legal, PlayersList, Tables, TileSet } from './api.gen';

export class ApiError extends Error {
  constructor(public status: number, message: string) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(path, {
    method,
    // Every request that changes something says it is JSON, with or without a body: the server
    // refuses any other (415), so no cross-site form can make one (docs/security.md).
    headers: method !== 'GET' && method !== 'HEAD' ? { 'Content-Type': 'application/json', ...headers } : headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `${res.status} ${res.statusText}`);
  return data as T;
}

export const api = {
  tables: () => call<Tables>('GET', '/api/tables'),
  tiles: (tileset: string, expansions: string[]) =>
    call<TileSet>('GET', `/api/tiles?tileset=${encodeURIComponent(tileset)}&expansions=${encodeURIComponent(expansions.join(','))}`),
  players: () => call<PlayersList>('GET', '/api/players'),
  games: () => call<GamesList>('GET', '/api/games'),
  create: (body: unknown) => call<CreatedGame>('POST', '/api/games', body),
  upload: (body: unknown) => call<CreatedGame>('POST', '/api/games/upload', body),
  game: (id: string) => call<GameView>('GET', `/api/games/${id}`),
  legal: (id: string) => call<Legal>('GET', `/api/games/${id}/legal`),
  move: (id: string, body: unknown) => call<GameView>('POST', `/api/games/${id}/move`, body),
  undo: (id: string, token: string) => call<GameView>('POST', `/api/games/${id}/undo`, { token }),
  resign: (id: string, token: string) => call<GameView>('POST', `/api/games/${id}/resign`, { token }),
  hint: (id: string, token: string) => call<Hint>('POST', `/api/games/${id}/hint`, { token }),
  join: (id: string, token: string) => call<JoinedGame>('POST', `/api/games/${id}/join`, { token }),
  replay: (id: string, turn: number) => call<GameView>('GET', `/api/games/${id}/replay?turn=${turn}`),
  chat: (id: string, token: string | null) => call<ChatList>('GET', `/api/games/${id}/chat`, undefined, token ? { 'X-Seat-Token': token } : {}),
  say: (id: string, token: string, body: { text?: string; spectators?: boolean }) => call<ChatList>('POST', `/api/games/${id}/chat`, { token, ...body }),
  rematch: (id: string, token: string) => call<{ id: string }>('POST', `/api/games/${id}/rematch`, { token }),
  recordUrl: (id: string) => `/api/games/${id}/record`,
};

// Seat tokens this browser holds, per game (localStorage).
export const tokens = {
  get(gameId: string): Record<number, string> {
    try {
      return JSON.parse(localStorage.getItem(`carc.tokens.${gameId}`) || '{}');
    } catch {
      return {};
    }
  },
  set(gameId: string, seat: number, token: string) {
    const t = tokens.get(gameId);
    t[seat] = token;
    localStorage.setItem(`carc.tokens.${gameId}`, JSON.stringify(t));
  },
  // Tokens of friends' seats, kept by the creator only to show their join links.
  invites(gameId: string): Record<number, string> {
    try {
      return JSON.parse(localStorage.getItem(`carc.invites.${gameId}`) || '{}');
    } catch {
      return {};
    }
  },
  setInvite(gameId: string, seat: number, token: string) {
    const t = tokens.invites(gameId);
    t[seat] = token;
    localStorage.setItem(`carc.invites.${gameId}`, JSON.stringify(t));
  },
};
