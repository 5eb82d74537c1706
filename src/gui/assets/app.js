// The page: draws what the server says and sends what the person does. It applies no
// rule of the game itself: the server lists the legal moves with their squares, and a
// click can only pick one of them. Engine output is shown as text, never as HTML.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let socket = null;
let hello = null;       // engines and what they offer
let state = null;       // the latest game state
let selected = null;    // the square key of the selected stone
let received = 0;       // when the state came, for the clocks
let lines = new Map();  // multipv -> info of the position shown
let linesKey = "";      // which position and source `lines` belong to
let verdicts = null;    // the latest solve message
let dragFrom = null;
let suppressClick = false;

const key = (c) => String.fromCharCode(97 + c[0]) + (c[1] + 1);

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  hint("Not connected to the server: reload the page once it runs again.");
  return false;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => {
    $("connection").textContent = "disconnected: reload the page once the server runs";
    document.body.dataset.connected = "false";
  };
  socket.onmessage = (event) => {
    let m;
    try { m = JSON.parse(event.data); } catch (e) { return; }
    const handler = handlers[m.type];
    if (handler) handler(m);
  };
}

const handlers = {
  hello(m) {
    hello = m;
    document.body.dataset.connected = "true";
    fillEngineLists();
    // A game against the first engine is ready as soon as the page opens.
    startGame();
  },
  state(m) {
    const plyChanged = !state || state.ply !== m.ply || state.position !== m.position;
    state = m;
    received = performance.now();
    if (plyChanged) {
      selected = null;
      verdicts = null;
      lines = new Map();
      for (const id of ["verdicts", "solve-status", "pv-lines", "search-line"]) $(id).textContent = "";
    }
    render();
  },
  info(m) { showInfo(m); },
  solve(m) { verdicts = m; showVerdicts(); drawBoard(); },
  log(m) { addLog(m.source + " > " + m.text); },
  games(m) {
    const list = $("games");
    list.textContent = "";
    m.games.forEach((label, i) => list.append(new Option(label, i)));
    list.hidden = m.games.length < 2;
  },
  export(m) {
    $("import-text").value = m.pgn;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([m.pgn], { type: "application/x-chess-pgn" }));
    link.download = "konane-game.pgn";
    link.click();
    URL.revokeObjectURL(link.href);
  },
  error(m) { hint(m.message); },
};

function hint(text) { $("hint").textContent = text; }

function addLog(text) {
  const log = $("log");
  log.append(document.createTextNode(text + "\n"));
  while (log.childNodes.length > 300) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}

// ---- the new-game form -------------------------------------------------------------

function fillEngineLists() {
  for (const id of ["black-player", "white-player"]) {
    const list = $(id);
    list.textContent = "";
    list.append(new Option("person", ""));
    hello.engines.forEach((e, i) => list.append(new Option(e.name + (e.problem ? " (failed)" : ""), i)));
  }
  if (hello.engines.length > 0) $("white-player").value = "0";
  const analysis = $("analysis-engine");
  analysis.textContent = "";
  hello.engines.forEach((e, i) => analysis.append(new Option(e.name, i)));
  updateLevels();
}

function updateLevels() {
  const black = $("black-player").value, white = $("white-player").value;
  for (const [side, me, other] of [["black", black, white], ["white", white, black]]) {
    const engine = me === "" ? null : hello.engines[Number(me)];
    const control = engine && engine.strength;
    const label = $(side + "-level-label");
    // Levels are for playing a person; engine against engine plays at full strength.
    label.hidden = !control || other !== "";
    if (!control) continue;
    const list = $(side + "-level");
    const previous = list.value;
    list.textContent = "";
    if (control.kind === "skill") {
      for (let v = control.max; v >= control.min; v--) {
        list.append(new Option(v === control.max ? v + " (full strength)" : String(v), v));
      }
    } else {
      list.append(new Option("full strength", ""));
      const step = Math.max(1, Math.round((control.max - control.min) / 20 / 50) * 50);
      for (let v = control.max; v >= control.min; v -= step) list.append(new Option("Elo " + v, v));
    }
    if ([...list.options].some((o) => o.value === previous)) list.value = previous;
  }
}

function sideSpec(side) {
  const who = $(side + "-player").value;
  if (who === "") return { engine: null };
  const spec = { engine: Number(who) };
  if (!$(side + "-level-label").hidden && $(side + "-level").value !== "") {
    spec.level = Number($(side + "-level").value);
  }
  return spec;
}

function limitSpec() {
  const kind = $("limit-kind").value;
  const value = Number($("limit-value").value);
  switch (kind) {
    case "clock": return { kind, base_ms: Math.round(value * 60000), inc_ms: Math.round(Number($("limit-inc").value) * 1000) };
    case "depth": return { kind, depth: Math.round(value) };
    case "nodes": return { kind, nodes: Math.round(value) };
    default: return { kind: "movetime", ms: Math.round(value * 1000) };
  }
}

function startGame(event) {
  if (event) event.preventDefault();
  send({
    type: "new",
    board: $("width").value + "x" + $("height").value,
    opening: $("opening").value,
    multijump: $("multijump").value,
    black: sideSpec("black"),
    white: sideSpec("white"),
    limit: limitSpec(),
    start: $("start-text").value.trim(),
  });
  hint("");
}

// ---- rendering ---------------------------------------------------------------------

function render() {
  const s = state;
  drawBoard();
  const [black, white] = s.players;
  $("black-name").textContent = "● " + black.name + " (black)";
  $("white-name").textContent = "○ " + white.name + " (white)";
  let status;
  if (s.over) {
    status = s.over.winner + " wins: " + s.over.reason;
  } else if (s.ply < s.moves.length) {
    status = "Viewing move " + s.ply + " of " + s.moves.length + "; " + s.side + " to move";
  } else if (s.thinking) {
    status = s.thinking + " (" + s.players[s.thinking === "black" ? 0 : 1].name + ") is thinking…";
  } else {
    status = s.side + " to move: " + s.phase;
  }
  $("status").textContent = status;
  $("status").className = s.over ? "over" : "";
  $("notice").textContent = s.notice || "";
  $("restart").hidden = !s.failed;
  $("position-text").textContent = s.position;
  $("back").disabled = $("first").disabled = s.ply === 0;
  $("forward").disabled = $("last").disabled = s.ply === s.moves.length;
  $("takeback").disabled = s.moves.length === 0;
  $("continue").disabled = s.ply === s.moves.length && !s.over;
  $("solve").disabled = !s.can_solve || s.solving;
  $("analyse").checked = s.analysing;
  renderMoves();
  drawGraph();
  drawClocks();
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  state.moves.forEach((m, i) => {
    const item = document.createElement("li");
    item.textContent = m.text;
    item.dataset.ply = i + 1;
    item.dataset.text = m.text;
    if (i + 1 === state.ply) item.className = "current";
    list.append(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

// Board coordinates: file f is x = f, rank r is y = height - 1 - r; labels outside.
function center(c) { return [c[0] + 0.5, state.board.height - c[1] - 0.5]; }

function drawBoard() {
  if (!state) return;
  const svg = $("board");
  const { width, height } = state.board;
  svg.setAttribute("viewBox", `-0.35 -0.05 ${width + 0.4} ${height + 0.4}`);
  svg.textContent = "";
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "head", viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#2a7ab8" }, marker);
  const legal = state.legal;
  const movable = new Set(legal.map((m) => key(m.path[0])));
  const targets = new Set(selected ? legal.filter((m) => key(m.path[0]) === selected).map((m) => key(m.path[m.path.length - 1])) : []);
  const last = state.ply > 0 ? state.moves[state.ply - 1] : null;
  const lastSquares = new Set(last ? last.path.map(key) : []);
  svg.dataset.ply = state.ply;
  svg.dataset.legal = legal.length;
  svg.dataset.position = state.position;
  for (let rank = 0; rank < height; rank++) {
    for (let file = 0; file < width; file++) {
      const c = [file, rank];
      const k = key(c);
      const stone = state.rows[height - 1 - rank][file];
      const [x, y] = [file, height - 1 - rank];
      el("rect", {
        x, y, width: 1, height: 1,
        class: (file + rank) % 2 === 1 ? "sq-dark" : "sq-light",
        "data-sq": k, "data-stone": stone === "." ? "" : stone,
      }, svg);
      if (lastSquares.has(k)) el("rect", { x, y, width: 1, height: 1, class: "last-move", "pointer-events": "none" }, svg);
      if (stone !== ".") el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.38, class: "stone-" + stone }, svg);
      if (movable.has(k)) el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.44, class: k === selected ? "selected" : "movable", "pointer-events": "none" }, svg);
      if (targets.has(k)) el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: "target", "pointer-events": "none" }, svg);
    }
  }
  for (let file = 0; file < width; file++) {
    const t = el("text", { x: file + 0.5, y: height + 0.28, "text-anchor": "middle", class: "coord" }, svg);
    t.textContent = String.fromCharCode(97 + file);
  }
  for (let rank = 0; rank < height; rank++) {
    const t = el("text", { x: -0.18, y: height - rank - 0.42, "text-anchor": "middle", class: "coord" }, svg);
    t.textContent = String(rank + 1);
  }
  drawArrows(svg);
  drawVerdictMarks(svg);
}

function drawArrows(svg) {
  const best = lines.get(1);
  if (!best || linesKey !== positionKey()) return;
  best.pv_paths.slice(0, 3).forEach((m, i) => {
    const points = m.path.map(center);
    const cls = ["arrow", i === 1 ? "second" : "", i === 2 ? "third" : ""].join(" ");
    if (points.length === 1) {
      el("circle", { cx: points[0][0], cy: points[0][1], r: 0.3, class: cls }, svg);
      return;
    }
    el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: cls, "marker-end": "url(#head)" }, svg);
  });
}

function drawVerdictMarks(svg) {
  if (!verdicts || verdicts.ply !== state.ply) return;
  for (const v of verdicts.verdicts) {
    if (v.verdict !== "win" && v.verdict !== "loss") continue;
    const end = v.move.path[v.move.path.length - 1];
    const [x, y] = center(end);
    const from = center(v.move.path[0]);
    // A small dot between the start and the end, so two moves to one square differ.
    const mx = x + (from[0] - x) * 0.22, my = y + (from[1] - y) * 0.22;
    el("circle", { cx: mx, cy: my, r: 0.11, class: v.verdict === "win" ? "mark-win" : "mark-loss" }, svg);
  }
}

function positionKey() { return state ? state.ply + " " + state.position : ""; }

function describeScore(score) {
  if (!score) return "";
  if ("mate" in score) return (score.mate > 0 ? "wins in " : "loses in ") + Math.abs(score.mate);
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

function showInfo(m) {
  if (!state || m.ply !== state.ply) return;
  // While the analyst runs, it alone fills the analysis panel.
  if (m.source !== "analysis" && state.analysing) return;
  const k = positionKey();
  if (linesKey !== k || m.source !== lines.source) {
    lines = new Map();
    lines.source = m.source;
    linesKey = k;
  }
  const info = m.info;
  if (info.string !== null && info.string !== undefined) return;
  lines.set(info.multipv, m);
  const parts = [];
  if (info.depth !== null) parts.push("depth " + info.depth + (info.seldepth ? "/" + info.seldepth : ""));
  if (info.score) parts.push("score " + describeScore(info.score) + " (" + state.side + ")");
  if (info.nodes !== null) parts.push(info.nodes.toLocaleString("en") + " nodes");
  if (info.nps !== null) parts.push(Math.round(info.nps / 1000).toLocaleString("en") + " kn/s");
  $("search-line").textContent = m.source + ": " + parts.join(" · ");
  const list = $("pv-lines");
  list.textContent = "";
  [...lines.keys()].sort((a, b) => a - b).forEach((n) => {
    const l = lines.get(n).info;
    const item = document.createElement("li");
    item.textContent = describeScore(l.score) + "  d" + (l.depth ?? "?") + "  " + l.pv.join(" ");
    list.append(item);
  });
  drawBoard();
  drawGraph();
}

function showVerdicts() {
  const list = $("verdicts");
  list.textContent = "";
  if (!verdicts) return;
  let wins = 0, losses = 0, pending = 0;
  for (const v of verdicts.verdicts) {
    const item = document.createElement("li");
    item.className = v.verdict;
    const word = { win: "wins", loss: "loses", unknown: "not proven", pending: "…" }[v.verdict];
    item.textContent = v.move.text + " " + word + (v.line.length > 1 ? ": " + v.line.join(" ") : "");
    list.append(item);
    if (v.verdict === "win") wins++; else if (v.verdict === "loss") losses++; else if (v.verdict === "pending") pending++;
  }
  $("solve-status").textContent = verdicts.done
    ? `${state.side} ${wins > 0 ? "wins" : "loses"}: ${wins} winning, ${losses} losing move(s)`
    : `solving… ${verdicts.verdicts.length - pending} of ${verdicts.verdicts.length}`;
  $("solve-status").dataset.done = verdicts.done;
}

function drawGraph() {
  const svg = $("graph");
  svg.textContent = "";
  if (!state) return;
  const n = Math.max(state.scores.length - 1, 1);
  const y = (v) => 40 - Math.max(-1000, Math.min(1000, v)) / 1000 * 38;
  const x = (i) => (i / n) * 300;
  el("line", { x1: 0, y1: 40, x2: 300, y2: 40, stroke: "#bbb", "stroke-width": 0.5 }, svg);
  const points = [];
  state.scores.forEach((v, i) => { if (v !== null) points.push(x(i).toFixed(1) + "," + y(v).toFixed(1)); });
  if (points.length) el("polyline", { points: points.join(" "), fill: "none", stroke: "#3b2a1c", "stroke-width": 1.2, "vector-effect": "non-scaling-stroke" }, svg);
  el("line", { x1: x(state.ply), y1: 0, x2: x(state.ply), y2: 80, stroke: "#2a7ab8", "stroke-width": 1, "vector-effect": "non-scaling-stroke" }, svg);
  const title = el("title", {}, svg);
  title.textContent = "score for black over the game (up: black is better)";
}

function drawClocks() {
  for (const side of ["black", "white"]) {
    const clock = $(side + "-clock");
    if (!state || !state.clocks) { clock.textContent = ""; clock.className = "clock"; continue; }
    let ms = state.clocks[side + "_ms"];
    const running = state.clocks.running === side;
    if (running) ms = Math.max(0, ms - (performance.now() - received));
    const s = Math.ceil(ms / 1000);
    clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    clock.className = "clock" + (running ? " running" : "");
  }
}

// ---- entering moves ----------------------------------------------------------------

// Says why a click on square `k` cannot start or finish a move.
function whyNot(k) {
  if (!state) return "Not connected.";
  if (state.over) return "The game is over: " + state.over.reason + ". Start a new game, or step back and press Continue.";
  if (state.ply < state.moves.length) return "This is an earlier position: go to the last move, or press Continue from here to play on from it.";
  if (state.thinking) return "It is " + state.thinking + "'s turn and the engine is thinking.";
  if (state.legal.length === 0) return "It is not your turn.";
  const file = k.charCodeAt(0) - 97, rank = Number(k.slice(1)) - 1;
  const stone = state.rows[state.board.height - 1 - rank][file];
  if (stone === ".") return selected ? "The selected stone cannot land on " + k + "; its landing squares are marked." : k + " is empty: click one of your marked stones.";
  const mine = stone === state.side[0];
  if (!mine) return "That is a " + (stone === "b" ? "black" : "white") + " stone; " + state.side + " is to move.";
  const removal = state.legal.some((m) => m.removal);
  return removal ? "That stone cannot be removed now; the stones that can are marked." : "The stone on " + k + " has no legal jump; the stones that can move are marked.";
}

function chooseMove(moves) {
  const box = $("choices");
  box.textContent = "";
  if (moves.length === 1) { play(moves[0].text); return; }
  // Two paths to one square (turning jumps) capture different stones: the person picks.
  const label = document.createElement("span");
  label.textContent = "Which path? ";
  box.append(label);
  for (const m of moves) {
    const b = document.createElement("button");
    b.textContent = m.path.map(key).join("-");
    b.dataset.move = m.text;
    b.onclick = () => { box.textContent = ""; play(m.text); };
    box.append(b);
  }
}

function play(text) {
  selected = null;
  hint("");
  send({ type: "move", text });
}

function squareClicked(k) {
  $("choices").textContent = "";
  if (!state) return;
  const legal = state.legal;
  const from = legal.filter((m) => key(m.path[0]) === k);
  if (selected) {
    const landing = legal.filter((m) => key(m.path[0]) === selected && key(m.path[m.path.length - 1]) === k && !m.removal);
    if (landing.length) { chooseMove(landing); return; }
    if (k === selected) { selected = null; drawBoard(); return; }
  }
  if (from.length) {
    const removal = from.find((m) => m.removal);
    if (removal) { play(removal.text); return; }
    selected = k;
    hint("");
    drawBoard();
    return;
  }
  hint(whyNot(k));
  if (selected) { selected = null; drawBoard(); }
}

function squareAt(event) {
  const target = event.target.closest ? event.target.closest("[data-sq]") : null;
  return target ? target.dataset.sq : null;
}

function setUpBoard() {
  const svg = $("board");
  svg.addEventListener("click", (event) => {
    if (suppressClick) { suppressClick = false; return; }
    const k = squareAt(event);
    if (k) squareClicked(k);
  });
  svg.addEventListener("pointerdown", (event) => {
    const k = squareAt(event);
    dragFrom = k && state && state.legal.some((m) => key(m.path[0]) === k && !m.removal) ? k : null;
  });
  svg.addEventListener("pointerup", (event) => {
    if (!dragFrom) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const k = under && under.closest ? (under.closest("[data-sq]") || {}).dataset : null;
    const to = k ? k.sq : null;
    const from = dragFrom;
    dragFrom = null;
    if (!to || to === from) return;
    const landing = state.legal.filter((m) => key(m.path[0]) === from && key(m.path[m.path.length - 1]) === to);
    if (landing.length) { suppressClick = true; selected = from; chooseMove(landing); }
  });
}

// ---- controls ----------------------------------------------------------------------

function goto(ply) { if (state) send({ type: "goto", ply: Math.max(0, Math.min(ply, state.moves.length)) }); }

function setUpControls() {
  for (const id of ["width", "height"]) {
    const list = $(id);
    for (let n = 2; n <= 16; n++) list.append(new Option(String(n), n));
    list.value = "8";
  }
  $("new-form").addEventListener("submit", startGame);
  $("black-player").addEventListener("change", updateLevels);
  $("white-player").addEventListener("change", updateLevels);
  $("limit-kind").addEventListener("change", () => {
    const kind = $("limit-kind").value;
    $("limit-inc").hidden = kind !== "clock";
    $("limit-value").value = { movetime: 1, clock: 5, depth: 6, nodes: 100000 }[kind];
  });
  $("first").onclick = () => goto(0);
  $("back").onclick = () => state && goto(state.ply - 1);
  $("forward").onclick = () => state && goto(state.ply + 1);
  $("last").onclick = () => state && goto(state.moves.length);
  $("takeback").onclick = () => send({ type: "takeback" });
  $("continue").onclick = () => send({ type: "continue" });
  $("stop").onclick = () => send({ type: "stop" });
  $("restart").onclick = () => send({ type: "restart" });
  $("moves").addEventListener("click", (event) => {
    const item = event.target.closest("li");
    if (item) goto(Number(item.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    if (!state || event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft") goto(state.ply - 1);
    if (event.key === "ArrowRight") goto(state.ply + 1);
  });
  const analyse = () => send({ type: "analyse", on: $("analyse").checked, engine: Number($("analysis-engine").value || 0), multipv: Number($("multipv").value) || 1 });
  $("analyse").onchange = analyse;
  $("multipv").onchange = () => { if ($("analyse").checked) analyse(); };
  $("analysis-engine").onchange = () => { if ($("analyse").checked) analyse(); };
  $("solve").onclick = () => send({ type: "solve", engine: Number($("analysis-engine").value || 0) });
  $("import").onclick = () => send({ type: "import", text: $("import-text").value });
  $("import-file").onchange = () => {
    const file = $("import-file").files[0];
    if (!file) return;
    file.text().then((text) => { $("import-text").value = text.length > 200000 ? "" : text; send({ type: "import", text }); });
  };
  $("games").onchange = () => send({ type: "load", index: Number($("games").value) });
  $("export").onclick = () => send({ type: "export" });
  $("copy-position").onclick = () => {
    const text = state ? state.position : "";
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => hint("Position copied."), () => hint(text));
    else hint(text);
  };
  setInterval(drawClocks, 250);
}

setUpControls();
setUpBoard();
connect();
