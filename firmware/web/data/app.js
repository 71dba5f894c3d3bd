// The companion page: draws the board from /board.svg, follows /api/events, and sends
// actions with the pairing token. Plain script, no build step.
"use strict";

const TOKEN_KEY = "surakarta-board-token";
const TOKEN_HEADER = "X-Board-Token";
let boardSize = null;
let state = null;
let replayGame = null;
let replayIndex = 0;
let cameraTimer = null;
let replyTimer = null;
const MODE_WORDS = {
  "two-player": "two players",
  "computer-red": "computer plays red",
  "computer-black": "computer plays black",
};

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// -- the board drawing -----------------------------------------------------------

async function loadBoard(size) {
  const response = await fetch("/board.svg", { cache: "no-store" });
  const text = await response.text();
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.importNode(parsed.documentElement, true);
  $("board-box").replaceChildren(svg);
  boardSize = Number(svg.dataset.size) || size;
}

function drawPieces(pieces) {
  for (const node of document.querySelectorAll("#board .piece")) {
    const color = pieces[node.dataset.point] || "";
    node.setAttribute("class", color ? `piece ${color}` : "piece");
    node.dataset.color = color;
  }
}

function drawPath(id, path, kind) {
  const node = $(id);
  if (!node) return;
  node.setAttribute("d", path || "");
  node.setAttribute("class", `path ${id === "last-path" ? "last" : "lit"} ${kind || ""}`);
}

function drawLamps(layers) {
  for (const node of document.querySelectorAll("#board .lamp.lit")) {
    node.setAttribute("class", node.getAttribute("class").split(" ")
      .filter((c) => !c.startsWith("lit") && !c.startsWith("layer-")).join(" "));
  }
  const taken = new Set();
  for (const layer of layers) {  // most urgent first: it owns the lamps it shares
    for (const name of layer.lamps) {
      if (taken.has(name)) continue;
      taken.add(name);
      const node = $(`lamp-${name}`);
      if (node) node.classList.add("lit", `lit-${layer.effect}`, `layer-${layer.layer}`);
    }
  }
}

async function drawBoard(s) {
  if (boardSize !== s.size) await loadBoard(s.size);
  if (replayGame) return drawReplay();
  drawPieces(s.pieces);
  drawLamps(s.lamps);
  drawPath("last-path", s.last_move && s.last_move.path);
  drawPath("lit-path", s.lit_move && s.lit_move.path, s.lit_move && s.lit_move.kind);
  const drawn = $("board");
  drawn.dataset.position = s.position;
  drawn.dataset.moves = String(s.moves.length);
  // When the board was first drawn and when the latest state arrived (for measurements).
  if (!document.body.dataset.ready) document.body.dataset.ready = String(performance.now());
  document.body.dataset.updated = String(Date.now());
}

// -- the panel -------------------------------------------------------------------

function showState(s) {
  state = s;
  drawBoard(s);
  const status = s.status;
  $("turn").textContent = status.over ? `Game over: ${status.result}` :
    !status.ready ? "Set up the board" : `${s.turn} to move`;
  $("game-line").textContent = `${s.variant} · ${MODE_WORDS[s.mode]} · level ${s.level}` +
    ` · red ${s.counts.red}, black ${s.counts.black}`;
  $("message").textContent = status.message;
  $("mode").value = s.mode;
  $("level").value = String(s.level);
  const variant = $("variant");
  if (variant.dataset.options !== s.variants.join()) {
    variant.replaceChildren(...s.variants.map((v) => new Option(v, v)));
    variant.dataset.options = s.variants.join();
  }
  variant.value = s.variant;
  const lamps = $("lamps");
  lamps.replaceChildren(...(s.lamps.length ? s.lamps.map((layer) => {
    const item = element("li");
    item.append(element("span", "", "swatch"), `${layer.meaning} (${layer.effect}): `,
      element("span", layer.lamps.join(" "), "dim"));
    item.dataset.layer = layer.layer;
    return item;
  }) : [element("li", "none", "dim")]));
  const moves = $("moves");
  const items = [];
  for (let i = 0; i < s.moves.length; i += 2) {
    items.push(element("li", s.moves.slice(i, i + 2).join("  ")));
  }
  moves.replaceChildren(...items);
  $("move-count").textContent = `(${s.moves.length})`;
  $("lamp-test").textContent = s.lamp_test ? `Lamp test: ${s.lamp_test}` : "";
  const buttons = s.button_test;
  $("button-test").textContent = !buttons ? "" :
    (buttons.running ? `Button test: press ${buttons.waiting.join(", ")}` : "Button test over") +
    (buttons.pressed.length ? `; working: ${buttons.pressed.join(", ")}` : "") +
    (!buttons.running && buttons.waiting.length ? `; no press from: ${buttons.waiting.join(", ")}`
      : "");
  const ev = s.evaluation;
  $("evaluation").textContent = !ev ? "" : ev.position !== s.position ? "" :
    ev.best ? `${ev.text}, best ${ev.best}; line ${ev.line.join(" ")} (depth ${ev.depth})` : ev.text;
  const match = s.match;
  $("match").textContent = !match ? "" : `Match ${match.players.join(" v ")}: ` +
    Object.entries(match.totals).map(([p, t]) => `${p} ${t}`).join(", ") +
    ` after ${match.games.length} games` + (match.over ? ` (over: ${match.leader || "level"})` :
      `; ${match.red_next} has red next`);
}

function showHealth(h) {
  if (!h) return;
  const rows = [
    ["uptime", `${Math.floor(h.uptime / 60)} min ${h.uptime % 60} s`],
    ["camera", h.camera_fps === null ? "no frames" : `${h.camera_fps} frames/s`],
    ["vision", h.read_rate === null ? "—" : `${Math.round(h.read_rate * 100)}% of frames read`],
    ["engine", h.engine],
    ["journal", !h.journal ? "not kept" : h.journal.ok ? `ok, ${h.journal.free_mb} MB free` :
      h.journal.problem, h.journal && !h.journal.ok],
    ["CPU", h.cpu_temperature === null ? "—" : `${h.cpu_temperature} °C`,
      h.cpu_temperature !== null && h.cpu_temperature > 75],
    ["pages open", String(h.pages)],
  ];
  $("health").replaceChildren(...rows.flatMap(([name, value, bad]) =>
    [element("dt", name), element("dd", value, bad ? "bad" : "")]));
}

// -- actions ---------------------------------------------------------------------

function token() { return localStorage.getItem(TOKEN_KEY) || ""; }

// What a button sends from the field it names (data-value-from): none when that is empty.
function fieldValue(id) {
  const field = id ? $(id) : null;
  return field && field.value !== "" ? field.value : undefined;
}

async function act(name, value) {
  const reply = $("reply");
  if (!token()) {
    reply.textContent = "pair this page first (Set-up tab)";
    reply.className = "reply refused";
    return;
  }
  const response = await fetch(`/api/action/${name}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", [TOKEN_HEADER]: token() },
    body: value === undefined ? "" : JSON.stringify({ value }),
  });
  let answer = {};
  try { answer = await response.json(); } catch (error) { answer = {}; }
  reply.textContent = answer.message || answer.error || `${response.status}`;
  reply.className = response.ok ? "reply" : "reply refused";
  clearTimeout(replyTimer);
  replyTimer = setTimeout(() => { reply.textContent = ""; }, 6000);
  if (response.status === 401) $("pair-state").textContent = "the token was refused";
}

async function pair(event) {
  event.preventDefault();
  const given = $("token").value.trim();
  const response = await fetch("/api/pair", { method: "POST", headers: { [TOKEN_HEADER]: given } });
  if (response.ok) {
    localStorage.setItem(TOKEN_KEY, given);
    $("token").value = "";
  }
  $("pair-state").textContent = response.ok ? "paired: this page may steer the board" :
    "that is not the board's token";
}

// -- games and replay ------------------------------------------------------------

async function loadGames() {
  const games = await (await fetch("/api/games")).json();
  const list = $("games");
  if (!games.length) return list.replaceChildren(element("li", "no finished games yet", "dim"));
  list.replaceChildren(...games.map((g) => {
    const item = element("li");
    item.append(element("span", g.readable ?
      `${g.date || ""} ${g.variant}, ${g.moves} moves, ${g.result}` : `${g.name} (unreadable)`));
    if (g.readable) {
      const replay = element("button", "Replay");
      replay.addEventListener("click", () => startReplay(g.name));
      item.append(replay);
    }
    const download = element("a", "Download");
    download.href = `/api/games/${encodeURIComponent(g.name)}`;
    download.setAttribute("download", g.name);
    item.append(download);
    return item;
  }));
}

async function startReplay(name) {
  replayGame = await (await fetch(`/api/games/${encodeURIComponent(name)}/replay`)).json();
  replayIndex = replayGame.plies.length - 1;
  $("replay").classList.remove("hidden");
  if (boardSize !== replayGame.size) await loadBoard(replayGame.size);
  drawReplay();
}

function drawReplay() {
  const ply = replayGame.plies[replayIndex];
  drawPieces(ply.pieces);
  drawLamps([]);
  drawPath("last-path", "");
  drawPath("lit-path", ply.path, "");
  $("replay-title").textContent = `${replayGame.variant}, ${replayGame.result}: ` +
    (ply.move ? `move ${replayIndex} ${ply.move}` : "start") + `, ${ply.turn} to move`;
  $("replay-lamps").disabled = replayIndex === 0;
}

function stepReplay(to) {
  replayIndex = Math.max(0, Math.min(replayGame.plies.length - 1, to));
  drawReplay();
}

function closeReplay() {
  replayGame = null;
  $("replay").classList.add("hidden");
  boardSize = null;
  if (state) drawBoard(state);
}

// -- set-up: the camera ------------------------------------------------------------

function refreshCamera() {
  const image = $("camera");
  const next = new Image();
  next.onload = () => { image.src = next.src; $("camera-note").textContent = ""; };
  next.onerror = () => { $("camera-note").textContent = "no camera frame (yet)"; };
  next.src = `/api/camera.jpg?t=${Date.now()}`;
}

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.tab === name);
  }
  for (const body of document.querySelectorAll(".tab-body")) {
    body.classList.toggle("hidden", body.id !== `tab-${name}`);
  }
  clearInterval(cameraTimer);
  cameraTimer = null;
  if (name === "setup") {
    refreshCamera();
    cameraTimer = setInterval(refreshCamera, 1000);
  }
  if (name === "games") loadGames();
}

// -- start -----------------------------------------------------------------------

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => showState(JSON.parse(event.data)));
  events.addEventListener("health", (event) => showHealth(JSON.parse(event.data)));
  events.onopen = () => { $("connection").textContent = "live"; $("connection").className = "connection live"; };
  events.onerror = () => { $("connection").textContent = "reconnecting…"; $("connection").className = "connection"; };
}

function start() {
  // A pairing link (page#token=...) keeps the token out of every request line and log.
  const match = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (match) {
    localStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, "", location.pathname);
  }
  $("pair-state").textContent = token() ? "paired" : "not paired: viewing only";
  const level = $("level");
  for (let n = 1; n <= 10; n += 1) level.append(new Option(String(n), String(n)));
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click",
      () => act(button.dataset.action, fieldValue(button.dataset.valueFrom)));
  }
  $("mode").addEventListener("change", (e) => act("mode", e.target.value));
  $("level").addEventListener("change", (e) => act("level", e.target.value));
  $("variant").addEventListener("change", (e) => act("variant", e.target.value));
  $("pair-form").addEventListener("submit", pair);
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showTab(tab.dataset.tab));
  }
  $("replay-first").addEventListener("click", () => stepReplay(0));
  $("replay-prev").addEventListener("click", () => stepReplay(replayIndex - 1));
  $("replay-next").addEventListener("click", () => stepReplay(replayIndex + 1));
  $("replay-last").addEventListener("click", () => stepReplay(Infinity));
  $("replay-close").addEventListener("click", closeReplay);
  $("replay-lamps").addEventListener("click", () => {
    if (replayIndex > 0) act("show-move", `${replayGame.name}:${replayIndex}`);
  });
  $("match-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("match", [$("match-first").value, $("match-second").value, $("match-games").value]
      .map((part) => part.trim().replace(/,/g, " ")).join(","));
  });
  $("match-off").addEventListener("click", () => act("match", "off"));
  connect();
}

document.addEventListener("DOMContentLoaded", start);
