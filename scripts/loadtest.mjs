// Load test of the game server on loopback (bounded in time). Runs GAMES concurrent games,
// each with one API-driven "human" seat (plays a random legal move as soon as it is its turn,
// polling the game like a browser without event streams would) and AI seats played by the
// server. Reports requests per second and latency percentiles per request kind.
//   node scripts/loadtest.mjs URL[,URL...] [--games N] [--seconds S] [--ai SPEC] [--seats K] [--streams]
// Several URLs (several server processes on one database, docs/deployment.md): game k's requests
// go to URL k mod N (a proxy keeping a client on one process: nginx ip_hash, HAProxy balance
// source); with --spread every request goes to the next URL in turn (round robin), so a client
// may read from a process that has not yet heard of its last move: its stale move is a 409,
// counted apart. --streams: each game also holds one event stream, on another URL than its
// requests' when there are several, and the script reports the event latency: from sending a
// move to its state arriving on that stream.
const args = process.argv.slice(2);
const bases = (args[0] || 'http://127.0.0.1:8080').split(',').map((u) => u.replace(/\/$/, ''));
const SPREAD = args.includes('--spread');
let next = 0;
const pick = () => bases[next++ % bases.length];
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const GAMES = Number(opt('games', 40));
const SECONDS = Number(opt('seconds', 20));
const AI = opt('ai', 'greedy');
const SEATS = Number(opt('seats', 2));
const STREAMS = args.includes('--streams');
const eventLat = [];  // ms from a move's request to its state on the game's event stream

const lat = {};  // kind -> [ms]
let errors = 0, requests = 0, moves = 0, finished = 0, created = 0, conflicts = 0;
const statusCounts = {};

async function req(kind, method, path, body, base = pick()) {
  const t0 = performance.now();
  let res;
  try {
    res = await fetch(base + path, {
      method,
      headers: method !== 'GET' ? { 'Content-Type': 'application/json' } : undefined,  // the server refuses other POSTs (415)
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    (lat[kind] ||= []).push(ms);
    requests++;
    statusCounts[res.status] = (statusCounts[res.status] || 0) + 1;
    if (res.status === 409 && bases.length > 1) { conflicts++; return null; }  // another process was ahead
    if (!res.ok) { errors++; return null; }
    return JSON.parse(text);
  } catch (e) {
    errors++;
    return null;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const deadline = Date.now() + SECONDS * 1000;

async function player(k) {
  while (Date.now() < deadline) {
    const players = [{ name: `H${k}`, type: 'human' }];
    for (let i = 1; i < SEATS; ++i) players.push({ name: `AI${i}`, type: 'ai', ai: AI });
    const g = await req('create', 'POST', '/api/games', { players }, SPREAD ? undefined : bases[k % bases.length]);
    if (!g) { await sleep(50); continue; }
    created++;
    const id = g.id, token = g.seats[0].token;
    const home = SPREAD ? undefined : bases[k % bases.length];
    const stream = STREAMS ? watch(id, bases[(k + 1) % bases.length]) : null;
    while (Date.now() < deadline) {
      const v = await req('view', 'GET', `/api/games/${id}`, undefined, home);
      if (!v) break;
      if (v.status !== 'playing') { finished++; break; }
      if (v.current_player !== 0) { await sleep(20); continue; }
      const legal = await req('legal', 'GET', `/api/games/${id}/legal`, undefined, home);
      if (!legal || !legal.placements.length) continue;
      const p = legal.placements[Math.floor(Math.random() * legal.placements.length)];
      const mv = { token, x: p.x, y: p.y, rotation: p.rotation, turn: legal.turn };
      if (p.followers.length && (Math.random() < 0.4 || !p.plain)) mv.follower = p.followers[Math.floor(Math.random() * p.followers.length)].at;
      // The game's stream should show this turn done (turn >= legal.turn) after the move.
      if (stream) stream.expect(legal.turn, performance.now());
      if (await req('move', 'POST', `/api/games/${id}/move`, mv, home)) moves++;
    }
    if (stream) stream.close();
  }
}

// One event stream of game `id` on `base`: the arrival of each state with a turn it waits for.
function watch(id, base) {
  const ac = new AbortController();
  let want = null;  // [turn, sent at]
  (async () => {
    try {
      const res = await fetch(`${base}/api/games/${id}/events`, { signal: ac.signal });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const msg = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const d = msg.indexOf('data: ');
          if (d < 0 || !want) continue;
          const turn = JSON.parse(msg.slice(d + 6)).turn;
          if (turn >= want[0]) {
            eventLat.push(performance.now() - want[1]);
            want = null;
          }
        }
      }
    } catch (e) {
      if (e.name !== 'AbortError') errors++;
    }
  })();
  return { expect: (turn, at) => { want = [turn, at]; }, close: () => ac.abort() };
}

function pct(a, q) {
  if (!a.length) return 0;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const t0 = Date.now();
await Promise.all(Array.from({ length: GAMES }, (_, k) => player(k)));
const secs = (Date.now() - t0) / 1000;
const all = Object.values(lat).flat();
const row = (name, a) => `| ${name} | ${a.length} | ${(a.length / secs).toFixed(0)} | ${pct(a, 0.5).toFixed(1)} | ${pct(a, 0.9).toFixed(1)} | ${pct(a, 0.99).toFixed(1)} | ${Math.max(0, ...a).toFixed(1)} |`;
console.log(`servers=${bases.length} (${bases.join(' ')}), ${bases.length > 1 ? (SPREAD ? 'every request to the next server' : "a game's requests to one server") : ''}${STREAMS ? ', one event stream per game' + (bases.length > 1 ? ' on another server' : '') : ''}`);
console.log(`games=${GAMES} concurrent, seats=${SEATS} (1 API player + ${SEATS - 1} x ${AI}), ${secs.toFixed(1)} s`);
console.log(`requests=${requests} (${(requests / secs).toFixed(0)} req/s), errors=${errors}, conflicts (409 from a process behind)=${conflicts}, statuses=${JSON.stringify(statusCounts)}`);
console.log(`games created=${created}, finished=${finished}, human moves=${moves} (${(moves / secs).toFixed(1)}/s)`);
console.log('| request | count | req/s | p50 ms | p90 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|---|');
for (const [k, a] of Object.entries(lat)) console.log(row(k, a));
console.log(row('all', all));
if (STREAMS) console.log(row('event (move sent -> state on the stream' + (bases.length > 1 ? ' of another process)' : ')'), eventLat));
if (errors) process.exitCode = 1;
