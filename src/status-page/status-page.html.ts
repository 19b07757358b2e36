/**
 * One self-contained page (no front-end build): plain HTML, CSS and a small script that polls the
 * admin API. Kept in a .ts file so that `tsc` ships it inside dist/ with the rest of the daemon.
 */
export const STATUS_PAGE_HTML = /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tracker-sync</title>
<style>
  :root { --fg:#1d232b; --muted:#6b7684; --line:#e3e7ec; --ok:#1a7f37; --bad:#c62828; --warn:#b26a00; --accent:#2f6feb; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; color: var(--fg); margin: 0; background: #f6f8fa; }
  header { background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; display: flex; gap: 16px; align-items: baseline; }
  header h1 { font-size: 18px; margin: 0; }
  #notice { flex: 1; color: var(--muted); }
  main { padding: 16px 24px; display: grid; gap: 16px; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px; }
  h2 { font-size: 15px; margin: 0 0 12px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { color: var(--muted); font-weight: 500; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
  tr.selected { background: #eef4ff; }
  tbody tr { cursor: pointer; }
  .muted { color: var(--muted); }
  .state { font-weight: 600; }
  .state-succeeded, .state-idle { color: var(--ok); }
  .state-failed, .state-failing, .state-interrupted { color: var(--bad); }
  .state-running { color: var(--accent); }
  .state-paused { color: var(--warn); }
  button { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px; cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  .counters { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 6px 24px; margin-top: 12px; }
  .counters div { display: flex; justify-content: space-between; gap: 12px; border-bottom: 1px dotted var(--line); }
  .counters span[title] { cursor: help; }
  table.streams { width: auto; min-width: 480px; }
  table.streams td.num, table.streams th.num { text-align: right; }
  tbody tr:hover { background: #f6f8fa; }
  button:disabled { opacity: .5; cursor: default; }
  #chart svg { display: block; max-width: 100%; }
  #login { max-width: 420px; margin: 80px auto; }
  #login input { width: 100%; padding: 8px; margin: 8px 0; font: inherit; }
  #error { color: var(--bad); }
  svg text { font-size: 10px; fill: var(--muted); }
  code { font-size: 12px; }
</style>
</head>
<body>
<header><h1>tracker-sync</h1><span class="muted" id="updated"></span><span id="notice"></span><button id="logout" hidden>Forget token</button></header>
<section id="login" hidden>
  <h2>Admin token</h2>
  <p class="muted">Printed once by the daemon at its first start (or the <code>ADMIN_TOKEN</code> you set). Kept in this browser tab only.</p>
  <form id="login-form"><input id="token" type="password" autocomplete="off" placeholder="token"><button class="primary" type="submit">Open</button></form>
  <p id="error"></p>
</section>
<main id="app" hidden>
  <section>
    <h2>Connections</h2>
    <table id="connections">
      <thead><tr><th>Connection</th><th>Connector</th><th>State</th><th>Last run</th><th>Read · sent · unchanged · rejected</th><th>Next run</th><th></th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section id="detail" hidden>
    <h2 id="detail-title"></h2>
    <div id="last-run"></div>
    <h2 style="margin-top:16px">Records sent per run</h2>
    <div id="chart"></div>
    <h2 style="margin-top:16px" id="rejected-title">Rejected records of the last run</h2>
    <table id="rejected"><thead><tr><th>Stream</th><th>Record</th><th>Where</th><th>Field</th><th>Reason</th></tr></thead><tbody></tbody></table>
  </section>
</main>
<script>
(function () {
  var TOKEN_KEY = 'tracker-sync-admin-token';
  var selected = null;
  var timer = null;
  var $ = function (id) { return document.getElementById(id); };
  var esc = function (v) { return String(v == null ? '' : v).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); };
  var when = function (v) { return v ? new Date(v).toLocaleString() : '—'; };
  var STREAM_KEYS = ['read', 'sent', 'unchanged', 'rejected', 'sent_without_visit'];
  // what the service's add-orders counters mean (the README says what to do about each)
  var COUNTER_HELP = {
    uploaded: 'orders the service accepted for processing',
    processed: 'orders in the requests',
    saved: 'orders the service stored (new or changed)',
    skipped_by_status: 'the status id is not known to the project: check status_map',
    skipped_by_waiting_visit_info: 'the visit id is not known to the service yet: kept until the visit arrives; check that the site puts the tracker_visit cookie into the deal',
    skipped_by_internal_error: 'the service failed on these orders: they are sent again on the next change',
    skipped_because_not_changed: 'the service already had these orders as sent',
    skipped_by_invalid_format: 'date_create was not readable: listed in the rejected records',
    skipped_fields_by_invalid_format: 'custom fields dropped by the service (over 1000 symbols)',
  };
  var lastRowsHtml = '';

  function api(method, path, body) {
    return fetch(path, {
      method: method,
      headers: { 'Authorization': 'Bearer ' + sessionStorage.getItem(TOKEN_KEY), 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (res) {
      if (res.status === 401) { logout('The token was not accepted.'); throw new Error('unauthorized'); }
      return res.json().then(function (json) { return { status: res.status, body: json }; });
    });
  }

  function totals(run) {
    var t = { read: 0, sent: 0, unchanged: 0, rejected: 0 };
    var streams = (run && run.streams) || {};
    Object.keys(streams).forEach(function (s) { ['read', 'sent', 'unchanged', 'rejected'].forEach(function (k) { t[k] += (streams[s] && streams[s][k]) || 0; }); });
    return t;
  }

  function renderConnections(list) {
    var rows = list.map(function (c) {
      var run = c.last_run, t = totals(run), busy = c.state === 'running' ? ' disabled' : '';
      return '<tr data-id="' + esc(c.id) + '" class="' + (c.id === selected ? 'selected' : '') + '">' +
        '<td><strong>' + esc(c.id) + '</strong></td><td>' + esc(c.connector) + '</td>' +
        '<td class="state state-' + esc(c.state) + '">' + esc(c.state) +
          (c.state === 'failing' && c.last_failure ? '<br><span class="muted" title="' + esc(c.last_failure.error) + '">' + esc(String(c.last_failure.error).slice(0, 80)) + '</span>' : '') + '</td>' +
        '<td>' + (run ? '#' + esc(run.id) + ' <span class="state state-' + esc(run.status) + '">' + esc(run.status) + '</span><br><span class="muted">' + when(run.finished_at || run.started_at) + '</span>' : '—') + '</td>' +
        '<td>' + (run ? [t.read, t.sent, t.unchanged, t.rejected].join(' · ') : '—') + '</td>' +
        '<td>' + when(c.next_run_at) + '</td>' +
        '<td><button data-action="sync" data-id="' + esc(c.id) + '"' + busy + ' title="incremental run: only new and changed records">Sync</button> ' +
        '<button data-action="resync" data-id="' + esc(c.id) + '"' + busy + ' title="full run: every record again, fingerprints ignored">Resync</button></td></tr>';
    });
    var html = rows.join('') || '<tr><td colspan="7" class="muted">No connections configured.</td></tr>';
    // re-rendered only on change, so a poll never swaps a button away under a click
    if (html !== lastRowsHtml) { document.querySelector('#connections tbody').innerHTML = html; lastRowsHtml = html; }
    if (!selected && list.length) selected = list[0].id;
  }

  function renderRun(run) {
    if (!run) { $('last-run').innerHTML = '<p class="muted">No run yet.</p>'; return; }
    var streams = run.streams || {}, counters = run.counters || {};
    var rows = Object.keys(streams).map(function (name) {
      return '<tr><td>' + esc(name) + '</td>' + STREAM_KEYS.map(function (k) { return '<td class="num">' + esc((streams[name] || {})[k] || 0) + '</td>'; }).join('') + '</tr>';
    });
    var cells = Object.keys(counters).map(function (k) {
      return '<div><span title="' + esc(COUNTER_HELP[k] || '') + '">' + esc(k) + '</span><strong>' + esc(counters[k]) + '</strong></div>';
    });
    $('last-run').innerHTML = '<p>Run <strong id="last-run-id">#' + esc(run.id) + '</strong> (' + esc(run.mode) + ', ' + esc(run.trigger) + '): ' +
      '<span class="state state-' + esc(run.status) + '" id="last-run-status">' + esc(run.status) + '</span> · started ' + when(run.started_at) +
      (run.finished_at ? ' · finished ' + when(run.finished_at) : '') +
      (run.error ? '<br><span class="state-failed">' + esc(run.error) + '</span>' : '') + '</p>' +
      (rows.length ? '<table class="streams"><thead><tr><th>Stream</th>' + STREAM_KEYS.map(function (k) { return '<th class="num">' + k.replace(/_/g, ' ') + '</th>'; }).join('') +
        '</tr></thead><tbody>' + rows.join('') + '</tbody></table>' : '<p class="muted">Nothing read.</p>') +
      '<div class="counters" title="the service&#39;s add-orders counters, summed over the run">' + cells.join('') + '</div>';
  }

  function renderChart(runs) {
    var data = runs.slice().reverse().map(function (r) { return { id: r.id, sent: totals(r).sent, at: r.started_at, status: r.status }; });
    if (!data.length) { $('chart').innerHTML = '<p class="muted">No runs yet.</p>'; return; }
    var step = 36, bw = 26, left = 8, top = 16, bottom = 22, plot = 120;
    var W = Math.max(320, left * 2 + data.length * step), H = top + plot + bottom;
    var max = Math.max.apply(null, data.map(function (d) { return d.sent; }).concat([1]));
    var bars = data.map(function (d, i) {
      var h = Math.round(plot * d.sent / max), x = left + i * step, y = top + plot - h;
      var color = d.status === 'failed' ? 'var(--bad)' : d.status === 'interrupted' ? 'var(--warn)' : 'var(--accent)';
      return '<g><title>run #' + d.id + ' · ' + esc(d.status) + ' · ' + when(d.at) + ' · sent ' + d.sent + '</title>' +
        '<rect x="' + x + '" y="' + y + '" width="' + bw + '" height="' + h + '" fill="' + color + '"></rect>' +
        '<text x="' + (x + bw / 2) + '" y="' + (y - 3) + '" text-anchor="middle">' + d.sent + '</text>' +
        '<text x="' + (x + bw / 2) + '" y="' + (H - 6) + '" text-anchor="middle">#' + d.id + '</text></g>';
    });
    $('chart').innerHTML = '<svg viewBox="0 0 ' + W + ' ' + H + '" width="' + W + '" height="' + H + '" role="img" aria-label="records sent per run">' +
      '<line x1="0" y1="' + (top + plot) + '" x2="' + W + '" y2="' + (top + plot) + '" stroke="#ccc"/>' + bars.join('') + '</svg>';
  }

  function renderRejected(items, total) {
    $('rejected-title').textContent = 'Rejected records of the last run' + (total ? ' (' + total + (total > items.length ? ', first ' + items.length + ' shown' : '') + ')' : '');
    document.querySelector('#rejected tbody').innerHTML = items.map(function (r) {
      return '<tr><td>' + esc(r.stream) + '</td><td>' + esc(r.external_id) + '</td><td class="muted">' + esc(r.ref) + '</td><td>' + esc(r.field) + '</td><td>' + esc(r.reason) + '</td></tr>';
    }).join('') || '<tr><td colspan="5" class="muted">None.</td></tr>';
  }

  function refresh() {
    return api('GET', '/api/connections').then(function (res) {
      var list = Array.isArray(res.body) ? res.body : (res.body.data || res.body.connections || []);
      renderConnections(list);
      $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
      if (!selected) return;
      $('detail').hidden = false;
      $('detail-title').textContent = selected;
      return api('GET', '/api/runs?connection=' + encodeURIComponent(selected) + '&limit=30').then(function (runsRes) {
        var runs = Array.isArray(runsRes.body) ? runsRes.body : (runsRes.body.data || runsRes.body.runs || []);
        renderRun(runs[0]);
        renderChart(runs);
        if (!runs[0]) { renderRejected([], 0); return; }
        return api('GET', '/api/runs/' + runs[0].id + '/rejected?limit=50').then(function (rej) {
          var items = Array.isArray(rej.body) ? rej.body : (rej.body.data || rej.body.rejected || []);
          renderRejected(items, rej.body.total || items.length);
        });
      });
    }).catch(function (e) { if (e.message !== 'unauthorized') $('updated').textContent = 'error: ' + e.message; });
  }

  function start() {
    $('login').hidden = true; $('app').hidden = false; $('logout').hidden = false;
    refresh(); clearInterval(timer); timer = setInterval(refresh, 2000);
  }
  function logout(message) {
    sessionStorage.removeItem(TOKEN_KEY); clearInterval(timer);
    $('app').hidden = true; $('logout').hidden = true; $('login').hidden = false; $('error').textContent = message || '';
  }

  $('login-form').addEventListener('submit', function (e) {
    e.preventDefault(); sessionStorage.setItem(TOKEN_KEY, $('token').value.trim()); $('token').value = ''; start();
  });
  $('logout').addEventListener('click', function () { logout(); });
  $('connections').addEventListener('click', function (e) {
    var target = e.target.closest('[data-action]');
    if (target) {
      var id = target.getAttribute('data-id'), action = target.getAttribute('data-action');
      selected = id;
      target.disabled = true;
      api('POST', '/api/connections/' + encodeURIComponent(id) + '/' + action, action === 'resync' ? {} : undefined).then(function (res) {
        var body = res.body || {};
        $('notice').textContent = res.status === 409 ? 'a run is already going (#' + body.run_id + ')'
          : res.status === 202 ? 'started run #' + body.run_id : 'error: ' + (body.message || res.status);
        refresh();
      }).catch(function (e) { $('notice').textContent = 'error: ' + e.message; target.disabled = false; });
      return;
    }
    var row = e.target.closest('tr[data-id]');
    if (row) { selected = row.getAttribute('data-id'); refresh(); }
  });

  if (sessionStorage.getItem(TOKEN_KEY)) start(); else logout();
})();
</script>
</body>
</html>
`;
