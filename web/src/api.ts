// The server's JSON API (docs/server.md), typed.

export interface SegmentData {
  kind: 'road' | 'city' | 'farm' | 'monastery' | 'tent' | string;
  sides: string[];   // "N" "E" "S" "W" touched by a road/city (rotation 0)
  halves: string[];  // "Nw" .. "Wn" touched by a field (rotation 0)
  pennants: number;
  adj_cities: number[];
  at: string;
}

export interface TileData {
  id: string;
  set: string;
  note: string;
  count: number;
  edges: string;            // "CRFR": N E S W at rotation 0
  segments: SegmentData[];
  center: number;           // segment index of the monastery / tent, or -1
  symbols: string[];        // "festival", "tree", ...
  wheel: number;            // Wheel of Fortune pig number, 0 = none
  canonical_rot: number[];  // per displayed rotation, the rotation the engine uses
}

export interface TileSet {
  tileset: string;
  expansions: string[];
  start: { tile: string; rotation: number };
  tiles: TileData[];
}

export interface SeatView {
  seat: number;
  name: string;
  type: 'human' | 'remote' | 'ai';
  ai: string;
  resigned: boolean;
  joined: boolean;
}

export interface ScoreEventView {
  turn: number;
  player: number;
  points: number;
  kind: string;
  final: boolean;
  x: number;
  y: number;
  text: string;
  fruit?: { harvest?: string; sell?: string[] };  // Fruit-Bearing Trees: what was harvested or sold
}

// Fruit-Bearing Trees, public part of a view: trees with the tokens left on each, the tokens
// each player holds ({"apple": 2}), and the stacks not yet on a tree.
export interface FruitTreeView {
  type: string;
  x: number;
  y: number;
  left: number;
}
export interface FruitView {
  trees: FruitTreeView[];
  held: Record<string, number>[];
  stacks: string[];
}

export interface FollowerView {
  player: number;
  x: number;
  y: number;
  seg: number;
  at: string;
  kind: string;
}

export interface PlacedView {
  x: number;
  y: number;
  tile: string;
  rotation: number;
}

export interface GameView {
  id: string;
  version?: number;
  status?: 'playing' | 'finished' | 'view';
  end_reason?: string;
  tileset: string;
  expansions: string[];
  turn: number;
  phase: 'place' | 'draw' | 'over';
  current_player: number;
  tile: string | null;
  bag: number;
  total_tiles: number;
  bag_counts?: Record<string, number>;  // tiles left in the bag per type
  drawn?: { tile: string; placeable: boolean }[];  // Fortune Teller: every tile drawn this turn
  board: PlacedView[];
  followers: FollowerView[];
  scores: number[];
  supply: number[];
  events: ScoreEventView[];
  last: { x: number; y: number } | null;
  players?: SeatView[];
  thinking?: number;
  turns_total: number;
  can_undo?: boolean;
  winners?: number[];
  replay_turn?: number;
  move?: {
    player: number; tile: string; x: number; y: number; rotation: number; meeple: string;
    fruit_type?: string; fruit?: { harvest?: { x: number; y: number }; sell?: string[] };
  };
  fruit?: FruitView;  // with the Fruit-Bearing Trees
}

export interface MeepleOption {
  seg: number;
  at: string;
  kind: string;
}
export interface ReturnOption {
  x: number;
  y: number;
  at: string;
  seg: number;
  kind: string;
}
// Fruit-Bearing Trees: a tree that a follower placed with this placement lets you harvest
// (`new`: the tree of the placed tile itself, which gets the stack chosen by fruit_type).
export interface HarvestOption {
  type: string;
  x: number;
  y: number;
  left: number;
  new: boolean;
}
export interface Placement {
  x: number;
  y: number;
  rotation: number;
  choice?: number;  // index of the drawn tile placed (Fortune Teller)
  tile?: string;
  plain: boolean;
  meeples: MeepleOption[];
  returns: ReturnOption[];
  fruit_types?: string[];  // a tree tile: the stacks that may go on it (the first is the default)
  fruit?: { harvest: HarvestOption[]; sell: string[] };  // fruit actions offered with a follower
}
export interface Legal {
  turn: number;
  player: number;
  tile: string | null;
  placements: Placement[];
  version?: number;
}

export interface CreatedGame {
  id: string;
  seats: { seat: number; name: string; type: string; token?: string; join_path?: string }[];
  game: GameView;
}

export interface GameSummary {
  id: string;
  status: string;
  turn: number;
  scores: number[];
  current_player: number;
  tileset: string;
  expansions: string[];
  players: { name: string; type: string; ai: string }[];
  created: number;
  updated: number;
}

export class ApiError extends Error {
  constructor(public status: number, message: string) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : undefined,
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
  tiles: (tileset: string, expansions: string[]) =>
    call<TileSet>('GET', `/api/tiles?tileset=${encodeURIComponent(tileset)}&expansions=${encodeURIComponent(expansions.join(','))}`),
  players: () => call<{ players: { name: string; description: string }[]; levels: string[] }>('GET', '/api/players'),
  games: () => call<{ games: GameSummary[] }>('GET', '/api/games'),
  create: (body: unknown) => call<CreatedGame>('POST', '/api/games', body),
  upload: (body: unknown) => call<CreatedGame>('POST', '/api/games/upload', body),
  game: (id: string) => call<GameView>('GET', `/api/games/${id}`),
  legal: (id: string) => call<Legal>('GET', `/api/games/${id}/legal`),
  move: (id: string, body: unknown) => call<GameView>('POST', `/api/games/${id}/move`, body),
  undo: (id: string, token: string) => call<GameView>('POST', `/api/games/${id}/undo`, { token }),
  resign: (id: string, token: string) => call<GameView>('POST', `/api/games/${id}/resign`, { token }),
  join: (id: string, token: string) => call<{ seat: number; name: string; game: GameView }>('POST', `/api/games/${id}/join`, { token }),
  replay: (id: string, turn: number) => call<GameView>('GET', `/api/games/${id}/replay?turn=${turn}`),
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
