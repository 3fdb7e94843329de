// The engine's vocabulary tables (GET /api/tables, src/engine/vocabulary.h): score kinds and
// their categories in display order, the order of a turn's events, fruit kinds and the points
// of a sale. Loaded once before any page is drawn (main.ts), so the client keeps no copy of
// engine knowledge; only presentation (colours, wording) lives here in the client.
import type { Tables } from './api';

let loaded: Tables | null = null;

export function setTables(t: Tables): void {
  loaded = t;
}

export function tables(): Tables {
  if (!loaded) throw new Error('the engine tables (/api/tables) are not loaded yet');
  return loaded;
}

// The fruit's numbers as message parameters, all from the engine's tables: what a harvest may
// score ({min}, {max}: the lowest and highest token value), the tokens of a stack ({tokens}: one
// per token value), the points of a sale of 1, 2, ... different fruit types ({sale}: "3/6/10/15"),
// those numbers of types ({kinds}: "1/2/3/4"), the most a sale may name ({sellMax}) and the points of
// each token still held at the end ({held}).
export function fruitPoints(): { min: number; max: number; tokens: number; sale: string; kinds: string; sellMax: number; held: number } {
  const vals = tables().fruit_token_values;
  const sale = tables().fruit_sale_points.slice(1);
  return {
    min: Math.min(...vals), max: Math.max(...vals), tokens: vals.length,
    sale: sale.join('/'), kinds: sale.map((_, i) => i + 1).join('/'), sellMax: sale.length,
    held: tables().fruit_held_token_points,
  };
}

// Points of a sale of n different fruit types (1..4).
export function salePoints(n: number): number {
  const pts = tables().fruit_sale_points;
  return pts[Math.min(n, pts.length - 1)] ?? 0;
}

// The score category an event kind counts for ("wheel" for the Wheel of Fortune's segments and
// crown spaces); an unknown kind is its own category.
export function categoryOf(kind: string): string {
  return tables().event_kinds.find((k) => k.name === kind)?.category ?? kind;
}

// Score categories in display order, with their labels.
export function categories(): { name: string; label: string }[] {
  return tables().score_categories;
}

// Whether an event kind scores points (false for the report-only kinds: the pig's move, the
// Plague's take-back).
export function scores(kind: string): boolean {
  return tables().event_kinds.find((k) => k.name === kind)?.scores ?? true;
}

