// nearby web view: a radar, a table and an event log fed by server-sent events (api/events,
// specs/web.md). No external resources. Accessory names come from BLE advertising, so data is
// only ever set as text or attribute values, never parsed as HTML.
'use strict';
(function () {
  const token = new URLSearchParams(location.search).get('token');
  const suffix = token ? '?token=' + encodeURIComponent(token) : '';
  const SVG = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#2e9d5b', '#e0a526', '#3b7dd8', '#8e6bd1', '#c25b8c', '#2aa3a3', '#b5651d', '#5c6bc0'];
  const NO_ZONE = '#8a93a1';
  const TRAIL = 24;
  const MAX_LOG = 300;

  const byId = (id) => document.getElementById(id);
  const layers = { zones: byId('zones'), grid: byId('grid'), trails: byId('trails'), rings: byId('rings'), dots: byId('dots') };
  const rows = byId('accessories').tBodies[0];
  const log = byId('log');
  const rawToggle = byId('raw');
  const connection = byId('connection');

  let zones = [];
  let range = 0;
  let accessories = new Map();
  let renderPending = false;
  let ended = false;
  let events = null;

  function svg(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(name, attributes, parent, text) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  const known = (value) => value !== null && value !== undefined;
  const fixed = (value, digits) => (known(value) ? value.toFixed(digits) : '–');
  const colour = (index) => (known(index) ? PALETTE[index % PALETTE.length] : NO_ZONE);
  const rawMode = () => rawToggle.checked;
  // An opaque pale version of a colour (zone areas drawn one over the other must not mix).
  function tint(hex, amount) {
    const channel = (i) => Math.round(255 - (255 - parseInt(hex.slice(i, i + 2), 16)) * amount);
    return 'rgb(' + channel(1) + ',' + channel(3) + ',' + channel(5) + ')';
  }

  function niceRange(metres) {
    for (const step of [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200]) if (step >= metres) return step;
    return Math.ceil(metres / 100) * 100;
  }
  const scale = (metres) => (Math.min(metres, range * 1.04) / range) * 100;

  // The radar's background: zone areas, rings at the zone boundaries, the range, axes.
  function drawGrid() {
    layers.zones.replaceChildren();
    layers.grid.replaceChildren();
    for (let i = zones.length - 1; i >= 0; i--) {
      const upper = zones[i].upper_m;
      const radius = known(upper) ? scale(upper) : 100;
      svg('circle', { r: radius.toFixed(2), class: 'zone-fill', fill: tint(colour(i), 0.13), 'data-zone': zones[i].name }, layers.zones);
    }
    svg('line', { x1: -100, y1: 0, x2: 100, y2: 0, class: 'axis' }, layers.grid);
    svg('line', { x1: 0, y1: -100, x2: 0, y2: 100, class: 'axis' }, layers.grid);
    svg('circle', { r: 100, class: 'ring range' }, layers.grid);
    svg('text', { x: 1.5, y: -101.5, class: 'range-label' }, layers.grid).textContent = range + ' m';
    for (const zone of zones) {
      if (!known(zone.upper_m)) continue;
      const radius = scale(zone.upper_m);
      svg('circle', { r: radius.toFixed(2), class: 'ring', 'data-boundary': zone.upper_m }, layers.grid);
      const label = svg('text', { x: 1.5, y: (-radius - 1.2).toFixed(2), class: 'ring-label' }, layers.grid);
      label.textContent = zone.upper_m + ' m';
    }
  }

  // The radar's range fits the outer zone boundary and every accessory's smoothed distance (a raw
  // outlier does not zoom the radar out; in raw mode it sits on the edge).
  function fitRange() {
    const outer = zones.length > 1 ? zones[zones.length - 2].upper_m : 3;
    let farthest = Math.max(outer * 1.6, 2);
    for (const entry of accessories.values()) {
      const d = entry.status && entry.status.tracking !== 'lost' ? entry.status.distance_m : null;
      if (known(d)) farthest = Math.max(farthest, d * 1.15);
    }
    const wanted = niceRange(farthest);
    if (wanted !== range) {
      range = wanted;
      drawGrid();
    }
  }

  // Where an accessory without a direction sits on its distance ring: a fixed angle per accessory.
  const slotAngle = (slot) => 150 + slot * 27;

  function point(distance, azimuth, slot) {
    const angle = ((known(azimuth) ? azimuth : slotAngle(slot)) * Math.PI) / 180;
    const radius = scale(distance);
    return [radius * Math.sin(angle), -radius * Math.cos(angle)];
  }

  function entryFor(id, name) {
    let entry = accessories.get(id);
    if (entry) return entry;
    const slot = accessories.size;
    const trail = svg('polyline', { class: 'trail', 'data-accessory': id }, layers.trails);
    const ring = svg('circle', { class: 'distance-ring', 'data-accessory': id, visibility: 'hidden' }, layers.rings);
    const dot = svg('g', { class: 'dot', 'data-accessory': id, visibility: 'hidden' }, layers.dots);
    const circle = svg('circle', { r: 3.2 }, dot);
    const label = svg('text', { x: 4.6, y: 1.6 }, dot);
    const row = html('tr', { 'data-accessory': id }, rows);
    const cells = {};
    for (const key of ['name', 'distance', 'velocity', 'zone', 'rate', 'fom', 'session', 'retries']) cells[key] = html('td', { class: key }, row);
    const swatch = html('span', { class: 'swatch' }, cells.name);
    const title = html('span', {}, cells.name, name);
    entry = { id, slot, status: null, seen: -1, trails: { raw: [], smoothed: [] }, nodes: { trail, ring, dot, circle, label, row, cells, swatch, title } };
    accessories.set(id, entry);
    return entry;
  }

  function applyStatus(status) {
    const entry = entryFor(status.accessory, status.name);
    entry.status = status;
    if (status.updates !== entry.seen) {
      entry.seen = status.updates;
      if (known(status.distance_m)) entry.trails.smoothed.push([status.distance_m, status.azimuth_deg]);
      if (known(status.raw_distance_m)) entry.trails.raw.push([status.raw_distance_m, known(status.raw_azimuth_deg) ? status.raw_azimuth_deg : status.azimuth_deg]);
      for (const trail of Object.values(entry.trails)) if (trail.length > TRAIL) trail.splice(0, trail.length - TRAIL);
    }
    scheduleRender();
  }

  function scheduleRender() {
    if (renderPending) return;
    renderPending = true;
    requestAnimationFrame(render);
    setTimeout(render, 200); // rAF does not run in a hidden tab; the DOM must still follow
  }

  function render() {
    if (!renderPending) return;
    renderPending = false;
    const raw = rawMode();
    document.body.dataset.mode = raw ? 'raw' : 'smoothed';
    fitRange();
    for (const entry of accessories.values()) renderEntry(entry, raw);
  }

  function renderEntry(entry, raw) {
    const s = entry.status;
    const n = entry.nodes;
    if (!s) return;
    const trail = raw ? entry.trails.raw : entry.trails.smoothed;
    const lost = s.tracking === 'lost';
    const distance = raw ? s.raw_distance_m : s.distance_m;
    const azimuth = raw ? (known(s.raw_azimuth_deg) ? s.raw_azimuth_deg : s.azimuth_deg) : s.azimuth_deg;
    const last = trail.length ? trail[trail.length - 1] : null;
    const shown = known(distance) && !lost ? [distance, azimuth] : last;
    const fill = colour(s.zone_index);
    n.trail.setAttribute('stroke', fill);
    n.trail.setAttribute('points', trail.map(([d, a]) => point(d, a, entry.slot).map((v) => v.toFixed(2)).join(',')).join(' '));
    if (!shown) {
      n.dot.setAttribute('visibility', 'hidden');
      n.ring.setAttribute('visibility', 'hidden');
    } else {
      const [d, a] = shown;
      const [x, y] = point(d, a, entry.slot);
      n.dot.setAttribute('visibility', 'visible');
      n.dot.setAttribute('transform', 'translate(' + x.toFixed(2) + ' ' + y.toFixed(2) + ')');
      n.dot.setAttribute('class', lost ? 'dot lost' : 'dot');
      n.dot.setAttribute('data-distance', d.toFixed(3));
      n.dot.setAttribute('data-azimuth', known(a) ? a.toFixed(1) : '');
      n.dot.setAttribute('data-zone', s.zone ?? '');
      n.circle.setAttribute('fill', fill);
      n.label.textContent = s.name + '  ' + d.toFixed(2) + ' m' + (lost ? ' (lost)' : known(a) ? '' : ' (no direction)');
      const onRing = !known(a);
      n.ring.setAttribute('visibility', onRing ? 'visible' : 'hidden');
      n.ring.setAttribute('r', scale(d).toFixed(2));
      n.ring.setAttribute('stroke', fill);
    }
    const c = n.cells;
    n.swatch.style.background = fill;
    n.title.textContent = s.name;
    n.row.dataset.t = s.t_s ?? '';
    n.row.dataset.updates = s.updates;
    c.distance.textContent = known(distance) ? distance.toFixed(2) + ' m' : lost ? 'lost' : '–';
    c.distance.title = 'smoothed ' + fixed(s.distance_m, 3) + ' m, raw ' + fixed(s.raw_distance_m, 3) + ' m';
    c.velocity.textContent = known(s.velocity_mps) ? (s.velocity_mps >= 0 ? '+' : '') + s.velocity_mps.toFixed(2) + ' m/s' : '–';
    c.zone.textContent = s.zone ?? '–';
    c.rate.textContent = s.update_rate_hz > 0 ? s.update_rate_hz.toFixed(1) + ' Hz' : '–';
    c.fom.textContent = known(s.figure_of_merit) ? s.figure_of_merit + (s.nlos ? ' NLoS' : '') : '–';
    c.session.textContent = s.session_detail;
    c.retries.textContent = s.retries;
  }

  // The event log, newest first.
  function describe(e) {
    switch (e.event) {
      case 'ranging':
        if (e.type === 'zone') return known(e.from) ? e.from + ' → ' + (e.to ?? 'no zone') : 'entered ' + (e.to ?? 'no zone');
        if (e.type === 'lost') return 'lost' + (known(e.zone) ? ' (was ' + e.zone + ')' : '');
        return 'found';
      case 'state':
        return 'session ' + e.detail;
      case 'configured':
        return 'configured: channel ' + e.channel + ', interval ' + e.interval_ms + ' ms, 0x01 → 0x0B ' + fixed(e.total_ms, 1) + ' ms';
      case 'retry':
        return 'retry ' + e.attempt + '/' + e.max_attempts + ': ' + e.reason + ', ' + e.action + ' in ' + fixed(e.delay_s, 2) + ' s';
      case 'hook': {
        let outcome = known(e.exit_code) ? 'exit ' + e.exit_code : known(e.signal) ? 'signal ' + e.signal : 'could not start: ' + e.error;
        if (e.timed_out) outcome += ', timed out';
        const on = e.trigger + (known(e.zone) ? ' ' + e.zone : '');
        const name = known(e.hook) && e.hook !== e.trigger && e.hook !== on ? e.hook + ' ' : '';
        return 'hook ' + name + 'on ' + on + ': ' + outcome + ', ' + fixed(e.duration_s, 2) + ' s';
      }
      case 'error':
        return 'error ' + e.code + ': ' + e.message;
      case 'dropped':
        return e.count + ' dropped (' + e.queue + ' queue full)';
      default:
        return e.message ?? e.event;
    }
  }

  function addLog(e, type, text) {
    const kind = type ?? (e.event === 'ranging' ? e.type : e.event);
    const item = html('li', { 'data-type': kind, 'data-accessory': e.accessory ?? '', 'data-t': known(e.t_s) ? e.t_s.toFixed(3) : '' });
    if (e.event === 'ranging' && e.type === 'zone') {
      item.dataset.from = e.from ?? '';
      item.dataset.to = e.to ?? '';
    }
    if (e.event === 'hook') {
      item.dataset.exitCode = e.exit_code ?? '';
      if (e.exit_code !== 0 || e.timed_out) item.classList.add('failed');
    }
    html('span', { class: 't' }, item, known(e.t_s) ? e.t_s.toFixed(1) + ' s' : '');
    if (known(e.name)) html('span', { class: 'who' }, item, e.name);
    html('span', { class: 'what' }, item, text ?? describe(e));
    log.insertBefore(item, log.firstChild);
    while (log.childElementCount > MAX_LOG) log.lastElementChild.remove();
  }

  function hello(state) {
    accessories = new Map();
    for (const layer of [layers.trails, layers.rings, layers.dots]) layer.replaceChildren();
    rows.replaceChildren();
    log.replaceChildren();
    zones = state.zones;
    range = 0;
    fitRange();
    byId('source').textContent = state.source + ' · ' + state.accessories.length + ' accessor' + (state.accessories.length === 1 ? 'y' : 'ies');
    document.body.dataset.connectedAt = state.t_s;
    for (const status of state.accessories) applyStatus(status);
    for (const e of state.events) addLog(e);
    legend();
    if (state.finished) finish(null);
  }

  function finish(summary) {
    ended = true;
    setConnection('ended', 'run ended');
    if (summary) addLog({ t_s: summary.t_s, event: 'end' }, 'end', 'run ended after ' + fixed(summary.duration_s, 1) + ' s');
    if (events) events.close();
  }

  function legend() {
    byId('legend').textContent =
      (rawMode() ? 'Raw measured distance and direction (before the filter).' : 'Smoothed distance and direction (the filter’s output).') +
      ' Straight ahead is up. A dashed ring: distance known, direction not. Rings: zone boundaries.';
  }

  function setConnection(state, text) {
    connection.dataset.state = state;
    connection.textContent = text;
  }

  function connect() {
    events = new EventSource('api/events' + suffix);
    events.addEventListener('open', () => setConnection('live', 'live'));
    events.addEventListener('hello', (m) => hello(JSON.parse(m.data)));
    events.addEventListener('status', (m) => applyStatus(JSON.parse(m.data)));
    events.addEventListener('log', (m) => addLog(JSON.parse(m.data)));
    events.addEventListener('gap', (m) => {
      const gap = JSON.parse(m.data);
      addLog(gap, 'gap', gap.dropped + ' event' + (gap.dropped === 1 ? '' : 's') + ' not shown (this page fell behind)');
    });
    events.addEventListener('end', (m) => finish(JSON.parse(m.data)));
    events.addEventListener('error', () => {
      if (ended) return;
      if (events.readyState === EventSource.CLOSED) {
        fetch('api/state' + suffix, { cache: 'no-store' })
          .then((r) => setConnection('error', r.status === 401 ? 'not authorised: open the address with ?token=…' : 'disconnected (reload to retry)'))
          .catch(() => setConnection('error', 'disconnected (reload to retry)'));
      } else {
        setConnection('connecting', 'reconnecting…');
      }
    });
  }

  rawToggle.addEventListener('change', () => {
    legend();
    renderPending = true;
    render();
  });
  connect();
})();
