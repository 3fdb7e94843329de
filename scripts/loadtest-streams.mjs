// Load test of the server's transport on loopback (bounded in time): while GAMES games are
// played through the API (two seats each, both played by this script: GET legal, POST move,
// then THINK ms), it holds STREAMS event streams spread over the games, SLOW connections that
// send one header line every 4 s (reconnecting when the server drops them) and IDLE
// connections that send nothing (likewise), from ADDRS loopback addresses (127.0.0.10...).
// The players and a /api/health probe (every 250 ms) run in a worker thread, so that their
// latencies are not those of this thread's event loop, busy with the streams.
// Reports moves/s, move and health latency percentiles, errors, whether every stream saw its
// game's last state, and the server's RSS (CARC_SERVER_PID) before, at peak and after.
//   node scripts/loadtest-streams.mjs URL [--streams 1000] [--slow 150] [--idle 300]
//        [--games 20] [--seconds 30] [--think 250] [--addrs 32]
import net from 'node:net';
import http from 'node:http';
import fs from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
};

if (isMainThread) {
  const args = process.argv.slice(2);
  const base = new URL(args[0] || 'http://127.0.0.1:8080');
  const opt = (name, def) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const STREAMS = opt('streams', 1000), SLOW = opt('slow', 150), IDLE = opt('idle', 300);
  const GAMES = opt('games', 20), SECONDS = opt('seconds', 30), THINK = opt('think', 250), ADDRS = opt('addrs', 32);
  const host = base.hostname, port = Number(base.port);
  const pid = process.env.CARC_SERVER_PID;
  const rss = () => {
    if (!pid) return null;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Math.round(Number(m[1]) / 1024) : null;
    } catch { return null; }
  };
  // CPU seconds (user + system) used so far by the server and by this process.
  const serverCpu = () => {
    if (!pid) return null;
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    } catch { return null; }
  };
  const clientCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
  const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const addr = (i) => `127.0.0.${10 + (i % ADDRS)}`;
  const EVENT = Buffer.from('event: state'), VERSION = Buffer.from('"version":');

  const request = (method, path, body) =>
    new Promise((resolve, reject) => {
      const data = body ? JSON.stringify(body) : undefined;
      const r = http.request({ host, port, method, path, headers: method !== 'GET' ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data || '') } : {} },
        (res) => {
          let t = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (t += d));
          res.on('end', () => resolve({ status: res.statusCode, body: t }));
        });
      r.on('error', reject);
      if (data) r.write(data);
      r.end();
    });

  const rssStart = rss();
  // The games.
  const games = [];
  for (let g = 0; g < GAMES; ++g) {
    const r = await request('POST', '/api/games', { players: [{ name: 'A', type: 'human' }, { name: 'B', type: 'human' }], seed: 1000 + g });
    if (r.status !== 201) throw new Error(`creating a game: ${r.status} ${r.body}`);
    const j = JSON.parse(r.body);
    games.push({ id: j.id, tokens: j.seats.map((s) => s.token), version: j.game.version });
  }

  // Event streams: the highest version each has seen.
  const streams = [];
  let streamErrors = 0, streamRefused = 0, streamEvents = 0;
  const openStream = (i) =>
    new Promise((resolve) => {
      const g = i % GAMES;
      const st = { game: g, seen: 0, events: 0, open: false };
      streams.push(st);
      const s = net.connect({ host, port, localAddress: addr(i) }, () => {
        s.write(`GET /api/games/${games[g].id}/events HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n\r\n`);
      });
      // Scanned as bytes (no decoding, no concatenation): the client shares the machine with the
      // server, so it must stay cheap. `tail` keeps the end of the previous chunk for a match
      // split between two chunks.
      let tail = Buffer.alloc(0);
      s.on('data', (chunk) => {
        if (!st.open) {
          if (!chunk.subarray(0, 12).equals(Buffer.from('HTTP/1.1 200'))) streamRefused++;
          st.open = true;
          resolve();
        }
        const d = tail.length ? Buffer.concat([tail, chunk]) : chunk;
        for (let k = d.indexOf(EVENT); k >= 0; k = d.indexOf(EVENT, k + 1))
          if (k + EVENT.length > tail.length) { st.events++; streamEvents++; }
        for (let k = d.indexOf(VERSION); k >= 0; k = d.indexOf(VERSION, k + 1)) {
          let e = k + VERSION.length, v = 0;
          while (e < d.length && d[e] >= 48 && d[e] <= 57) v = v * 10 + (d[e++] - 48);
          if (e >= d.length || e < tail.length) continue;  // cut off (seen next time) or seen before
          if (!st.first) st.first = v;
          if (v > st.seen) st.seen = v;
        }
        tail = Buffer.from(d.subarray(Math.max(0, d.length - 48)));
      });
      s.on('error', () => { streamErrors++; resolve(); });
      s.on('close', () => { st.closed = true; resolve(); });
      st.socket = s;
    });
  const t0 = Date.now();
  for (let i = 0; i < STREAMS; i += 50) await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, (_, k) => openStream(i + k)));
  const streamsOpenMs = Date.now() - t0;

  // Slow-header and idle connections, reconnected when the server drops them.
  let running = true, slowDropped = 0, idleDropped = 0, connectErrors = 0;
  const hold = (i, slow) => {
    if (!running) return;
    const s = net.connect({ host, port, localAddress: addr(i + 7) });
    let timer = null;
    s.on('connect', () => {
      if (!slow) return;
      s.write('GET /api/health HTTP/1.1\r\n');
      let n = 0;
      timer = setInterval(() => s.write(`X-Slow-${n++}: ${'x'.repeat(20)}\r\n`), 4000);
    });
    s.on('error', () => connectErrors++);
    s.on('close', () => {
      clearInterval(timer);
      if (!running) return;
      if (slow) slowDropped++; else idleDropped++;
      setTimeout(() => hold(i, slow), 10);
    });
    (slow ? slowSockets : idleSockets).push(s);
  };
  const slowSockets = [], idleSockets = [];
  for (let i = 0; i < SLOW; ++i) hold(i, true);
  for (let i = 0; i < IDLE; ++i) hold(SLOW + i, false);
  await sleep(500);
  const rssLoaded = rss();

  // The players and the health probe, in a worker.
  let rssPeak = rssLoaded;
  const cpu0 = serverCpu(), ccpu0 = clientCpu(), tPlay = Date.now();
  const sampler = setInterval(() => { const r = rss(); if (r > rssPeak) rssPeak = r; }, 1000);
  const result = await new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { host, port, games, seconds: SECONDS, think: THINK } });
    w.on('message', resolve);
    w.on('error', reject);
  });
  const playSeconds = (Date.now() - tPlay) / 1000;
  const serverCpuS = serverCpu() - cpu0, clientCpuS = clientCpu() - ccpu0;
  // Every stream must reach its game's last version.
  const finalVersion = result.finalVersions;
  const deadline = Date.now() + 10000;
  const behind = () => streams.filter((s) => s.seen < finalVersion[s.game]).length;
  while (behind() > 0 && Date.now() < deadline) await sleep(100);
  const lagging = behind();
  running = false;
  clearInterval(sampler);
  for (const s of [...slowSockets, ...idleSockets, ...streams.map((x) => x.socket)]) s.destroy();
  await sleep(1500);
  const rssAfter = rss();

  const moves = result.moves;
  const out = {
    setup: { streams: STREAMS, slow: SLOW, idle: IDLE, games: GAMES, seconds: SECONDS, think_ms: THINK, client_addresses: ADDRS },
    moves, moves_per_s: +(moves / SECONDS).toFixed(1),
    move_ms: { p50: pct(result.moveMs, 50), p99: pct(result.moveMs, 99), max: pct(result.moveMs, 100) },
    health_ms: { probes: result.healthMs.length, p50: pct(result.healthMs, 50), p99: pct(result.healthMs, 99), max: pct(result.healthMs, 100), failed: result.healthFailed },
    errors: { moves: result.errors, streams_refused: streamRefused, stream_errors: streamErrors, connect_errors: connectErrors },
    streams: { opened_in_ms: streamsOpenMs, events_received: streamEvents, saw_last_state: STREAMS - lagging, lagging,
               updates_skipped: streams.reduce((n, s) => n + (s.first ? finalVersion[s.game] - s.first + 1 - s.events : 0), 0) },
    slow_dropped_by_server: slowDropped, idle_dropped_by_server: idleDropped,
    server_rss_mb: { before: rssStart, loaded: rssLoaded, peak: rssPeak, after: rssAfter },
    cpu: { server_cores: +(serverCpuS / playSeconds).toFixed(2), server_ms_per_move: +((serverCpuS * 1000) / Math.max(1, moves)).toFixed(2),
           client_main_thread_cores: +(clientCpuS / playSeconds).toFixed(2), load_average_at_end: loadavg() },
  };
  console.log(JSON.stringify(out, null, 2));
  process.exit(lagging || result.errors || result.healthFailed ? 1 : 0);
} else {
  // Worker: plays every game (both seats) and probes /api/health.
  const { host, port, games, seconds, think } = workerData;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const request = (method, path, body) =>
    new Promise((resolve) => {
      const data = body ? JSON.stringify(body) : undefined;
      const t0 = performance.now();
      const r = http.request({ host, port, method, path, agent, headers: method !== 'GET' ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data || '') } : {} },
        (res) => {
          const chunks = [];
          res.on('data', (d) => chunks.push(d));
          res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }));
        });
      r.setTimeout(10000, () => r.destroy(new Error('timeout')));
      r.on('error', () => resolve({ status: -1, body: '', ms: performance.now() - t0 }));
      if (data) r.write(data);
      r.end();
    });
  const moveMs = [], healthMs = [];
  let moves = 0, errors = 0, healthFailed = 0;
  const finalVersions = games.map((g) => g.version);
  const deadline = Date.now() + seconds * 1000;
  const play = async (gi) => {
    const g = games[gi];
    await sleep(Math.random() * think);
    while (Date.now() < deadline) {
      const lr = await request('GET', `/api/games/${g.id}/legal`);
      if (lr.status !== 200) { errors++; await sleep(think); continue; }
      const legal = JSON.parse(lr.body);
      if (!legal.placements || !legal.placements.length) break;  // game over
      const p = legal.placements[Math.floor(Math.random() * legal.placements.length)];
      const mv = { token: g.tokens[legal.player], x: p.x, y: p.y, rotation: p.rotation, turn: legal.turn };
      if (p.followers.length && Math.random() < 0.5) mv.follower = p.followers[0].at;
      else if (!p.plain) mv.follower = p.followers[0].at;
      const r = await request('POST', `/api/games/${g.id}/move`, mv);
      if (r.status === 200) {
        moves++;
        moveMs.push(r.ms);
        const v = r.body.lastIndexOf('"version":');
        finalVersions[gi] = Math.max(finalVersions[gi], parseInt(r.body.slice(v + 10), 10));
      } else {
        errors++;
      }
      await sleep(think);
    }
  };
  const probe = async () => {
    while (Date.now() < deadline) {
      const r = await request('GET', '/api/health');
      if (r.status === 200) healthMs.push(r.ms); else healthFailed++;
      await sleep(250);
    }
  };
  await Promise.all([...games.map((_, i) => play(i)), probe()]);
  parentPort.postMessage({ moves, errors, healthFailed, moveMs, healthMs, finalVersions });
}
