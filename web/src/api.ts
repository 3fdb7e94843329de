// The server's JSON API (docs/server.md), typed.

export interface SegmentData {
  kind: 'road' | 'city' | 'field' | 'monastery' | 'tent' | string;
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
  start: { tile: string; rotation: number } | null;  // null when the game starts with a board
  tiles: TileData[];
  // Wheel of Fortune: the start board's cells (tile types "board:X:Y" at rotation 0) and the
  // wheel's segments clockwise with their number of crown spaces; `pig` is the start segment.
  board?: { cells: { x: number; y: number; tile: string }[]; wheel: { event: string; crowns: number }[]; pig: number };
}

export interface SeatView {
  seat: number;
  name: string;
  type: 'human' | 'remote' | 'ai';
  ai: string;
  resigned: boolean;
  joined: boolean;
  chat_public?: boolean;  // this seat lets spectators read the chat
}

// One entry of the view's one event log (`events`, in the engine's order): a scoring, the pig's
// move (kind "pig", points 0) or a follower taken back for the Plague (kind "plague", points 0).
export interface ScoreEventView {
  turn: number;
  player: number;
  points: number;
  kind: string;
  final: boolean;
  where: 'wheel' | 'board';  // where a client shows it: over the Wheel of Fortune, or at x, y
  x: number;
  y: number;
  text: string;  // the server's English line (the web client narrates from the data instead)
  tile?: string;  // on the board: the tile at x, y; the pig: the drawn tile that turned the wheel
  feature?: string;  // on the board: the kind of feature scored ("city", "field"), or the Plague's
  fruit?: { harvest?: string; sell?: string[] };  // Fruit-Bearing Trees: what was harvested or sold
  segment?: string;  // Wheel of Fortune scorings and the pig: the pig's segment (its event, "taxes")
  from?: string;     // the pig: the segment it left
  to?: string;       // the pig: the segment it moved to
  steps?: number;    // the pig: how many segments
  seg?: number;      // the Plague: the tile's segment the follower stood on
  at?: string;       // the Plague: its location ("N", "NE")
  follower?: string; // the Plague: the follower's role ("knight")
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

// Wheel of Fortune, public part of a view: the segments clockwise with their crown spaces
// (player -1 when free), the pig's segment, the player deciding the Plague (-1). The pig's moves
// and the Plague's take-backs are entries of the view's one event log (GameView.events).
export interface CrownView {
  space: string;   // "crown:taxes:0"
  player: number;
}
export interface WheelSegmentView {
  event: string;   // fortuna taxes famine storm inquisition plague
  name: string;    // "Fortuna", "the Plague"
  crowns: CrownView[];
}
export interface WheelView {
  segments: WheelSegmentView[];
  pig: number;
  pig_event: string;
  plague_player: number;
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
  phase: 'chance' | 'place' | 'plague' | 'terminal';  // the engine's one set (GET /api/tables: phases)
  current_player: number;   // the player to decide (during the Plague: the one taking a follower back)
  turn_player?: number;     // the player whose turn it is
  tile: string | null;
  bag: number;
  total_tiles: number;
  bag_counts?: Record<string, number>;  // tiles left in the bag per type
  drawn?: { tile: string; placeable: boolean; wheel?: number }[];  // Fortune Teller: every tile drawn this turn
  chosen?: number;  // Wheel of Fortune: the drawn tile that turned the wheel this turn, or -1
  board: PlacedView[];
  followers: FollowerView[];
  scores: number[];
  supply: number[];
  events: ScoreEventView[];
  last: { x: number; y: number } | null;
  players?: SeatView[];
  thinking?: number;
  // An AI seat that failed (docs/server.md, "When an AI fails"): nothing is played in its place
  // and the game waits until a person undoes or resigns.
  ai_failure?: { seat: number; ai: string; error: string };
  turns_total: number;
  can_undo?: boolean;
  allow_hints?: boolean;  // "Suggest a move" is allowed in this game (chosen at creation)
  winners?: number[];
  paused?: boolean;  // paused by the server's operator: no move until resumed
  // Chat (games with a friend): how many messages, whether spectators may read them (every
  // person's seat allowed it) and then the messages; seats read them with GET .../chat.
  chat_count?: number;
  chat_public?: boolean;
  chat?: ChatLine[];
  rematch?: string;  // the rematch of this finished game, when one was started
  // Games with a remote seat: the commitment to the secret seed; salt and seed once over
  // (docs/security.md, "Fair draws").
  fair_draws?: { from_turn: number; commitment: string; salt?: string; seed?: number };
  replay_turn?: number;
  move?: {
    player: number; tile: string; x: number; y: number; rotation: number; follower?: string;
    fruit_type?: string; fruit?: { harvest?: { x: number; y: number }; sell?: string[] };
    take_back?: { x?: number; y?: number; at: string }; plague?: { x: number; y: number; at: string }[];
  };
  fruit?: FruitView;  // with the Fruit-Bearing Trees
  wheel?: WheelView;  // with the Wheel of Fortune
}

export interface FollowerOption {
  seg: number;
  at: string;
  kind: string;
}
export interface TakeBackOption {
  x: number;
  y: number;
  at: string;
  seg: number;
  kind: string;
  crown?: boolean;  // Wheel of Fortune: a follower on crown space `at` (no x, y, seg, kind)
}
// The Plague: one of the deciding player's followers on the land.
export interface PlagueOption {
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
  followers: FollowerOption[];
  take_backs: TakeBackOption[];
  fruit_types?: string[];  // a tree tile: the stacks that may go on it (the first is the default)
  fruit?: { harvest: HarvestOption[]; sell: string[] };  // fruit actions offered with a follower
  crowns?: string[];  // Wheel of Fortune: free crown spaces the follower may go to instead
}
export interface Legal {
  turn: number;
  player: number;
  phase?: 'chance' | 'place' | 'plague' | 'terminal';
  tile: string | null;
  placements: Placement[];
  choices?: { choice: number; tile: string; wheel: number }[];  // wheel tiles to choose first
  plague?: PlagueOption[];  // the Plague: followers the player may take back
  reason?: string;
  version?: number;
}

// The engine's vocabulary tables (GET /api/tables; src/engine/vocabulary.h, docs/vocabulary.md).
export interface Tables {
  feature_kinds: { name: string; score_kind: string }[];
  score_categories: { name: string; label: string }[];  // in display order
  phases: string[];  // the one set of phase names: chance, place, plague, terminal
  // every event kind: scoring ones in display order (`category`), then report-only ones (pig, plague)
  event_kinds: { name: string; category: string | null; stage: string; scores: boolean; where: 'wheel' | 'board' }[];
  event_stages: string[];  // the order of a turn's events; "final" after every turn
  fruit_kinds: string[];
  fruit_sale_points: number[];  // index: number of different fruit types sold
  fruit_token_values: number[];  // a stack's token values, top first: what a harvest may score
  wheel_events: string[];
  rotations: number[];
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
  allow_hints?: boolean;
  created: number;
  updated: number;
}

// A tile set or expansion of the engine's module table (src/engine/expansions/registry.h).
export interface ModuleInfo { name: string; label: string; board: boolean }
export interface PlayersList {
  players: { name: string; description: string }[];
  levels: string[];
  level_details?: LevelInfo[];
  tilesets?: ModuleInfo[];
  expansions?: ModuleInfo[];  // the lobby's expansion choices, in canonical order
}
export interface GamesList {
  games: GameSummary[];
}
export interface JoinedGame {
  seat: number;
  name: string;
  game: GameView;
}
// A suggested move (POST /api/games/ID/hint): the move body as POST .../move takes it, the
// engine's description, and the search's estimates for the player to move.
export interface HintMove {
  move: {
    kind: 'place' | 'choose' | 'plague';
    choice?: number; tile?: string; x?: number; y?: number; rotation?: number; follower?: string; at?: string;
    take_back?: { x?: number; y?: number; at: string }; fruit_type?: string;
    fruit?: { harvest?: { x: number; y: number }; sell?: string[] };
  };
  description: string;
  win_probability: number;  // 0..1
  score_diff: number;       // expected final score minus the best opponent's
  visits: number;
}
export interface Hint { turn: number; player: number; moves: HintMove[] }

// An AI level of the lobby (GET /api/players, "level_details"): games = 0 means not calibrated yet.
export interface LevelInfo { name: string; label: string; description?: string; spec: string; elo: number; elo_low: number; elo_high: number; games: number }

// A chat message: the seat, its name when posted, the cleaned text, when (unix ms).
export interface ChatLine { seat: number; name: string; text: string; at: number }
export interface ChatList { chat: ChatLine[]; chat_public: boolean }

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
