import { ADD_ORDERS_COUNTER_MEANINGS } from '../tracker/types/orders.types';

/**
 * The page's script (plain ES5, no build): asks for the token once, polls the admin API every 2 s, and
 * re-renders a part only when its HTML changed, so a poll never swaps a button or an opened text away.
 */
export const STATUS_PAGE_SCRIPT = /* js */ `
(function () {
  var TOKEN_KEY = 'tracker-sync-admin-token';
  var CUT = 300; // characters of a long text shown before "show all"
  var STREAM_KEYS = ['read', 'sent', 'unchanged', 'rejected', 'sent_without_visit'];
  // what the service's add-orders counters mean, in the service's order (the README says what to do about each)
  var COUNTER_HELP = ${JSON.stringify(ADD_ORDERS_COUNTER_MEANINGS)};
  // each outbound flow's title and counters with what they mean (each flow's description, through the page's #flows)
  var FLOWS = JSON.parse(document.getElementById('flows').textContent);
  var state = { list: [], runs: [], lastRunRejected: null, open: null, openCounts: {}, stages: null };
  var selected = null;
  var expanded = {};  // keys of long texts the user opened
  var pending = null; // { connection, run }: the run the notice is about; the notice clears when it ends
  var stagesFor = null; // the connection and last run the stage mapping was read after
  var timer = null;

  var $ = function (id) { return document.getElementById(id); };
  var esc = function (v) { return String(v == null ? '' : v).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); };
  var when = function (v) { return v ? new Date(v).toLocaleString() : '—'; };
  var num = function (n) { return Number(n || 0).toLocaleString('en-US'); };
  var cell = function (label, html, cls) { return '<td data-label="' + esc(label) + '"' + (cls ? ' class="' + cls + '"' : '') + '><div>' + html + '</div></td>'; };
  function setHtml(el, html) { if (el.getAttribute('data-html') !== html) { el.innerHTML = html; el.setAttribute('data-html', html); } }

  /** A text of any length and content: control characters shown as ·, cut at CUT with "show all". */
  function longText(key, text, cut) {
    var clean = String(text == null ? '' : text).replace(/[\\u0000-\\u0008\\u000b-\\u001f\\u007f]/g, '·');
    cut = cut || CUT;
    if (clean.length <= cut) return '<span class="long">' + esc(clean) + '</span>';
    if (expanded[key]) return '<span class="long"><pre>' + esc(clean) + '</pre><button type="button" class="link" data-toggle="' + esc(key) + '">show less</button></span>';
    return '<span class="long">' + esc(clean.slice(0, cut)) + '… <button type="button" class="link" data-toggle="' + esc(key) +
      '">show all (' + num(clean.length) + ' characters)</button></span>';
  }

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

  // Projects (GET /api/projects, one request for all): a heading per project with its number and counts; with more
  // projects than GROUPS_OPEN_UP_TO the groups start collapsed (the selected connection's stays open), and the filter
  // box shows the connections whose id, or whose project's name or number, holds its text
  var GROUPS_OPEN_UP_TO = 5;
  var projects = [];
  var collapsed = {}; // project name → the user's choice

  function connectionRow(c) {
    var run = c.last_run, t = totals(run), open = state.openCounts[c.id];
    var busy = c.state === 'running' || (c.flows || []).some(function (f) { return f.state === 'running'; }) ? ' disabled' : '';
    return '<tr data-id="' + esc(c.id) + '" class="' + (c.id === selected ? 'selected' : '') + '">' +
      cell('Connection', '<strong>' + esc(c.id) + '</strong>') + cell('Connector', esc(c.connector)) +
      cell('State', '<span class="state state-' + esc(c.state) + '">' + esc(c.state) + '</span>' +
        (c.state === 'failing' && c.last_failure ? '<br><span class="error">' + longText('failure:' + c.id, c.last_failure.error, 80) + '</span>' : '') +
        skippedTicks('sync', c.ticks) + flowLines(c)) +
      cell('Last run', run ? '#' + esc(run.id) + ' <span class="state state-' + esc(run.status) + '">' + esc(run.status) + '</span><br><span class="muted">' + when(run.finished_at || run.started_at) + '</span>' : '—') +
      cell('Read · sent · unchanged · rejected', !run ? '—' : [t.read, t.sent, t.unchanged, t.rejected].map(num).join(' · ')) +
      cell('Open rejections', open == null ? '—' : num(open), 'open-count') +
      cell('Next run', c.schedule_halted ? '<span class="error" title="' + esc(c.schedule_halted) + '">none: the schedule is not firing</span>' : when(c.next_run_at)) +
      '<td class="actions none"><div>' + (readOnly ? '<span class="muted" title="this token (admin.tokens, role viewer) may read, not start runs">read-only</span>' :
        '<button data-action="sync" data-id="' + esc(c.id) + '"' + busy + ' title="incremental run: only new and changed records">Sync</button> ' +
        '<button data-action="resync" data-id="' + esc(c.id) + '"' + busy + ' title="full run: every record again, fingerprints ignored">Resync</button>') + '</div></td></tr>';
  }

  // A viewer's token (GET /api/session) may read, not run: its page offers no buttons that would answer 403
  var readOnly = false;
  function readSession() {
    return api('GET', '/api/session').then(function (res) {
      readOnly = res.status === 200 && res.body && res.body.role === 'viewer';
    }).catch(function () { readOnly = false; });
  }

  function groupRow(name, project, list, open) {
    var count = function (st) { return list.filter(function (c) { return c.state === st; }).length; };
    var failing = count('failing'), running = count('running');
    var rejected = project ? project.open_rejections.total : 0;
    var facts = [project && project.number ? '#' + esc(project.number) : 'the sandbox&#39;s project', num(list.length) + ' connection' + (list.length === 1 ? '' : 's')];
    if (failing) facts.push('<span class="state-failing">' + num(failing) + ' failing</span>');
    if (running) facts.push('<span class="state-running">' + num(running) + ' running</span>');
    if (rejected) facts.push(num(rejected) + ' open rejection' + (rejected === 1 ? '' : 's'));
    var budget = project && project.budget;
    if (budget) facts.push('<span title="this installation&#39;s share of the project&#39;s request budget">' + num(budget.used_this_hour) + ' of ' + num(budget.per_hour) + ' requests this hour</span>');
    return '<tr class="project-row" data-project="' + esc(name) + '"><td colspan="8" class="none"><div><button type="button" class="link group-toggle" data-group="' + esc(name) +
      '" aria-expanded="' + open + '">' + (open ? '▾ ' : '▸ ') + esc(name) + '</button> <span class="muted">' + facts.join(' · ') + '</span></div></td></tr>';
  }

  function renderConnections() {
    var q = $('filter').value.trim().toLowerCase();
    var byProject = {}, names = [];
    state.list.forEach(function (c) {
      var name = c.project || 'default';
      if (!byProject[name]) { byProject[name] = []; }
      byProject[name].push(c);
    });
    projects.forEach(function (p) { if (byProject[p.name]) names.push(p.name); });
    Object.keys(byProject).forEach(function (name) { if (names.indexOf(name) < 0) names.push(name); });
    var grouped = names.length > 1, rows = [], shownCount = 0;
    names.forEach(function (name) {
      var project = projects.filter(function (p) { return p.name === name; })[0], list = byProject[name];
      var whole = !q || (name + ' #' + (project && project.number || '')).toLowerCase().indexOf(q) >= 0;
      var shown = whole ? list : list.filter(function (c) { return c.id.toLowerCase().indexOf(q) >= 0; });
      if (!shown.length) return;
      shownCount += shown.length;
      var open = !grouped || !!q || (collapsed[name] != null ? !collapsed[name] : names.length <= GROUPS_OPEN_UP_TO || list.some(function (c) { return c.id === selected; }));
      if (grouped) rows.push(groupRow(name, project, list, open));
      if (open) shown.forEach(function (c) { rows.push(connectionRow(c)); });
    });
    $('filter-count').textContent = q ? num(shownCount) + ' of ' + num(state.list.length) + ' connections' : grouped ? num(names.length) + ' projects, ' + num(state.list.length) + ' connections' : '';
    setHtml(document.querySelector('#connections tbody'), rows.join('') ||
      (state.list.length ? '<tr><td colspan="8" class="muted none">No project or connection matches "' + esc(q) + '".</td></tr>' : '<tr><td colspan="8" class="muted none">No connections configured.</td></tr>'));
  }

  /**
   * The connection's state and last run are its sync's; each outbound flow it runs gets a line of its own (its state
   * and last run), so a lead pass that succeeds never hides a sync that fails.
   */
  function flowLines(c) {
    return (c.flows || []).map(function (f) {
      var r = f.last_run;
      return '<div class="flow-line" data-flow="' + esc(f.flow) + '"><span class="muted">' + esc(f.title) + '</span> <span class="state state-' + esc(f.state) + '">' + esc(f.state) + '</span>' +
        (r ? ' <span class="muted">#' + esc(r.id) + ' ' + esc(r.status) + ' ' + when(r.finished_at || r.started_at) + '</span>' : ' <span class="muted">no run yet</span>') +
        skippedTicks(f.flow, f.ticks) + '</div>';
    }).join('');
  }

  /**
   * Ticks that found a run of their flow already waiting (the flow runs less often than its schedule says), and
   * ticks that could not start a run at all (the store refused its row: no run shows it).
   */
  function skippedTicks(flow, ticks) {
    if (!ticks) return '';
    var name = esc(flow === 'sync' ? 'sync' : FLOWS[flow] ? FLOWS[flow].title : flow);
    var failed = ticks.failed ? '<div class="error" data-failed-ticks="' + esc(flow) + '">' + num(ticks.failed) + ' of ' + num(ticks.ticks) + ' ' + name +
      ' ticks could not start a run (last ' + when(ticks.last_failed_at) + ': ' + esc(String(ticks.last_failure || '').slice(0, 200)) + ')</div>' : '';
    if (!ticks.skipped) return failed;
    return '<div class="warning" data-skipped="' + esc(flow) + '">' + num(ticks.skipped) + ' of ' + num(ticks.ticks) + ' ' +
      name + ' ticks skipped (last ' + when(ticks.last_skipped_at) + '); longest wait ' +
      num(Math.round(ticks.max_wait_ms / 1000)) + ' s</div>' + failed;
  }

  function renderRun(run) {
    if (!run) { setHtml($('last-run'), '<p class="muted">No run yet.</p>'); return; }
    var streams = run.streams || {}, counters = run.counters || {};
    var rows = Object.keys(streams).map(function (name) {
      return '<tr><td>' + esc(name) + '</td>' + STREAM_KEYS.map(function (k) { return '<td class="num" data-label="' + k.replace(/_/g, ' ') + '">' + num((streams[name] || {})[k]) + '</td>'; }).join('') + '</tr>';
    });
    var cells = Object.keys(counters).map(function (k) {
      return '<div><span title="' + esc(COUNTER_HELP[k] || '') + '">' + esc(k) + '</span><strong>' + num(counters[k]) + '</strong></div>';
    });
    setHtml($('last-run'), '<p>Run <strong id="last-run-id">#' + esc(run.id) + '</strong> (' + esc(run.mode) + ', ' + esc(run.trigger) + '): ' +
      '<span class="state state-' + esc(run.status) + '" id="last-run-status">' + esc(run.status) + '</span> · started ' + when(run.started_at) +
      (run.finished_at ? ' · finished ' + when(run.finished_at) : '') + '</p>' +
      (run.error ? '<div class="error" id="last-run-error">' + longText('run:' + run.id, run.error) + '</div>' : '') +
      (rows.length ? '<div class="scroll"><table class="streams"><thead><tr><th>Stream</th>' + STREAM_KEYS.map(function (k) { return '<th class="num">' + k.replace(/_/g, ' ') + '</th>'; }).join('') +
        '</tr></thead><tbody>' + rows.join('') + '</tbody></table></div>' : '<p class="muted">Nothing read.</p>') +
      notices(streams) +
      '<div class="counters" title="the service&#39;s add-orders counters, summed over the run">' + cells.join('') + '</div>');
  }

  /** What a connector left out of a stream (a CRM refusing its products endpoint), with how to grant it. */
  function notices(streams) {
    var items = [];
    Object.keys(streams).forEach(function (name) {
      ((streams[name] || {}).notices || []).forEach(function (text, i) { items.push('<li>' + esc(name) + ': ' + longText('notice:' + name + i, text) + '</li>'); });
    });
    return items.length ? '<ul class="warning" id="last-run-notices">' + items.join('') + '</ul>' : '';
  }

  // Outbound runs (write-back, lead delivery): a block per flow (id: the flow's name with dashes), shown when the
  // connection has any; the columns are the flow's counters, their meanings its description's
  function renderFlowRuns(flow, runs) {
    var id = flow.replace(/_/g, '-'), help = FLOWS[flow].counters, keys = Object.keys(help);
    if (!$(id + '-block')) return;
    $(id + '-block').hidden = !runs.length;
    setHtml(document.querySelector('#' + id + ' thead tr'), '<th>Run</th><th>Status</th><th>Started</th>' +
      keys.map(function (k) { return '<th class="num" title="' + esc(help[k]) + '">' + esc(k) + '</th>'; }).join('') + '<th>Error</th>');
    setHtml(document.querySelector('#' + id + ' tbody'), runs.slice(0, 10).map(function (r) {
      var c = r.flow_counters || {};
      return '<tr data-run="' + esc(r.id) + '">' + cell('Run', '#' + esc(r.id) + ' (' + esc(r.trigger) + ')') +
        cell('Status', '<span class="state state-' + esc(r.status) + '">' + esc(r.status) + '</span>') + cell('Started', when(r.started_at)) +
        keys.map(function (k) { return cell(k, num(c[k]), 'num'); }).join('') +
        cell('Error', r.error ? '<span class="error">' + longText(id + ':' + r.id, r.error) + '</span>' : '') + '</tr>';
    }).join(''));
  }

  function renderChart(runs) {
    var data = runs.slice().reverse().map(function (r) { return { id: r.id, sent: totals(r).sent, at: r.started_at, status: r.status }; });
    if (!data.length) { setHtml($('chart'), '<p class="muted">No runs yet.</p>'); return; }
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
    setHtml($('chart'), '<svg viewBox="0 0 ' + W + ' ' + H + '" width="' + W + '" height="' + H + '" role="img" aria-label="records sent per run">' +
      '<line x1="0" y1="' + (top + plot) + '" x2="' + W + '" y2="' + (top + plot) + '" stroke="#ccc"/>' + bars.join('') + '</svg>');
  }

  /** Rejected records (of the last run, or still open for the connection) as a table; key names their long texts. */
  function rejectedRows(items, key, withDates) {
    var span = withDates ? 7 : 5;
    return items.map(function (r, i) {
      return '<tr>' + cell('Stream', esc(r.stream)) + cell('Record', r.external_id ? esc(r.external_id) : '<span class="muted">(no id)</span>') + cell('Where', '<span class="muted">' + esc(r.ref) + '</span>') +
        cell('Field', esc(r.field)) + cell('Reason', longText(key + ':' + i + ':' + r.stream + ':' + r.external_id, r.reason)) +
        (withDates ? cell('First seen', when(r.first_seen)) + cell('Last seen', when(r.last_seen)) : '') + '</tr>';
    }).join('') || '<tr><td colspan="' + span + '" class="muted none">None.</td></tr>';
  }

  function shownOf(total, shown) { return total ? ' (' + num(total) + (total > shown ? ', first ' + num(shown) + ' shown' : '') + ')' : ''; }

  function renderRejected() {
    var last = state.lastRunRejected || { items: [], total: 0 };
    $('rejected-title').textContent = 'Rejected records of the last run' + shownOf(last.total, last.items.length);
    setHtml(document.querySelector('#rejected tbody'), rejectedRows(last.items, 'last', false));
    var open = state.open || { items: [], total: 0 };
    if (open.error) {
      $('open-rejected-title').textContent = 'Open rejections';
      setHtml(document.querySelector('#open-rejected tbody'), '<tr><td colspan="7" class="error none">Could not be read: ' + esc(open.error) + '</td></tr>');
      return;
    }
    $('open-rejected-title').textContent = 'Open rejections' + shownOf(open.total, open.items.length);
    setHtml(document.querySelector('#open-rejected tbody'), rejectedRows(open.items, 'open', true));
  }

  // The schedules do not fire (cluster mode: Redis unreachable): said above everything, not only by /health
  function renderHalted(halt) {
    $('halted').hidden = !halt;
    setHtml($('halted'), halt ? '<strong>Scheduled runs are not happening:</strong> ' + esc(halt.message) : '');
  }

  // Active alerts (GET /api/alerts): a block of its own, shown while some condition is alerted; the messages not
  // delivered (every attempt failed) in another, shown while one of the last day is
  var FAILURES_SHOWN_MS = 24 * 3600 * 1000;
  var activeAlerts = [];
  var failedDeliveries = [];
  function refreshAlerts() {
    return Promise.all([api('GET', '/api/alerts?limit=1'), api('GET', '/api/alerts?status=failed&limit=10')]).then(function (got) {
      var res = got[0], failed = got[1];
      activeAlerts = (res.status === 200 && res.body && res.body.active) || [];
      failedDeliveries = ((failed.status === 200 && failed.body && failed.body.deliveries) || []).filter(function (d) {
        return Date.now() - new Date(d.created_at).getTime() < FAILURES_SHOWN_MS;
      });
      renderAlerts();
    }).catch(function () {});
  }

  /** An active condition whose last send was not delivered says so, with when it is tried again. */
  function deliveryNote(a) {
    if (a.delivery === 'failed') {
      return '<br><span class="error" data-undelivered="' + esc(a.event) + '">not delivered: ' + num(a.delivery_failures) + ' failed deliver' + (a.delivery_failures === 1 ? 'y' : 'ies') +
        (a.last_error ? ' (' + esc(String(a.last_error).slice(0, 200)) + ')' : '') + '; tried again after ' + when(a.retry_at) + '</span>';
    }
    return a.delivery === 'pending' ? '<br><span class="muted">being delivered</span>' : '';
  }

  function renderFailedDeliveries() {
    $('alert-failures-block').hidden = failedDeliveries.length === 0;
    setHtml(document.querySelector('#alert-failures tbody'), failedDeliveries.map(function (d) {
      return '<tr data-delivery="' + esc(d.id) + '">' + cell('When', when(d.created_at)) + cell('Alert', esc(d.alert_id) + ' <span class="muted">' + esc(d.type) + '</span>') +
        cell('Event', esc(d.event) + (d.reminder ? ' <span class="muted">(reminder)</span>' : '')) + cell('Connection', esc(d.connection_id || '—')) +
        cell('Attempts', num(d.attempts)) + cell('Why', '<span class="error">' + longText('delivery:' + d.id, d.last_error || 'not delivered', 160) + '</span>') + '</tr>';
    }).join(''));
  }
  function renderAlerts() {
    var by = {};
    activeAlerts.forEach(function (a) { (by[a.connection_id] = by[a.connection_id] || []).push(a); });
    var ids = Object.keys(by).sort();
    $('alerts-block').hidden = ids.length === 0;
    setHtml(document.querySelector('#active-alerts tbody'), ids.map(function (id) {
      var items = by[id].map(function (a) {
        return '<li><strong class="error">' + esc(a.event) + '</strong>' + (a.flow ? ' (' + esc(FLOWS[a.flow] ? FLOWS[a.flow].title : a.flow) + ')' : '') + ' <span class="muted">' + esc(a.alert_id) + ' · since ' + when(a.since) + '</span><br>' +
          longText('alert:' + a.alert_id + ':' + id + ':' + a.event, a.message, 160) + deliveryNote(a) + '</li>';
      }).join('');
      return '<tr data-alerts="' + esc(id) + '">' + cell('Connection', '<strong>' + esc(id) + '</strong>') + cell('Alerts', '<ul class="alerts">' + items + '</ul>') + '</tr>';
    }).join(''));
    renderFailedDeliveries();
  }

  // Request budget (GET /api/budget): a block of its own, shown while requests of this daemon have waited for it
  // over 2 s (waits of a fraction of a second are the budget's ordinary spacing)
  function refreshBudget() {
    return api('GET', '/api/budget').then(function (res) {
      var b = res.status === 200 ? res.body : null;
      var waiting = !!(b && b.enabled && b.waiting > 0 && b.longest_wait_seconds >= 2);
      $('budget-block').hidden = !waiting;
      if (!waiting) return;
      setHtml($('budget-text'), '<strong>' + num(b.waiting) + '</strong> request' + (b.waiting === 1 ? '' : 's') + ' waiting since ' + esc(when(b.waiting_since)) +
        ' · left this hour: ' + num(b.remaining && b.remaining.hour) + ' of ' + num(b.per_hour) + ' · pace ' + num(b.per_second) + '/s');
    }).catch(function () {});
  }

  // Webhooks (GET /api/webhooks): the last call per connection with webhook settings, shown when there is one
  function refreshWebhooks() {
    return api('GET', '/api/webhooks').then(function (res) {
      var rows = res.status === 200 && Array.isArray(res.body) ? res.body.filter(function (w) { return w.enabled; }) : [];
      $('webhooks-block').hidden = !rows.length;
      setHtml(document.querySelector('#webhooks tbody'), rows.map(function (w) {
        var run = w.run_due ? 'due (debounce)' : w.follow_up_queued ? 'follows the run going' : '—';
        return '<tr data-webhook="' + esc(w.connection) + '">' + cell('Connection', '<strong>' + esc(w.connection) + '</strong>') +
          cell('Last call', when(w.last_call_at)) +
          cell('Outcome', w.last_outcome ? '<span class="state state-' + (w.last_outcome === 'accepted' ? 'succeeded' : w.last_outcome === 'paused' ? 'paused' : 'failed') + '">' + esc(w.last_outcome) + '</span>' : '<span class="muted">no call yet</span>') +
          cell('Last accepted', when(w.last_accepted_at)) + cell('Run', esc(run)) + '</tr>';
      }).join(''));
    }).catch(function () {});
  }

  /** A generic-crm connection's stages and what each is sent as; uncovered ones flagged with their deals. */
  function renderStages() {
    var m = state.stages;
    $('stages-block').hidden = !m;
    if (!m) return;
    if (m.error) { setHtml($('stages-text'), '<span class="error">The CRM&#39;s stages could not be read: ' + esc(m.error) + '</span>'); setHtml(document.querySelector('#stages tbody'), ''); return; }
    var uncovered = m.stages.filter(function (s) { return s.status === null; });
    setHtml($('stages-text'), m.statuses === 'register'
      ? 'Every stage is registered in the project and sent as itself (statuses: register).'
      : uncovered.length
      ? '<strong class="error">' + uncovered.length + ' stage' + (uncovered.length === 1 ? '' : 's') + ' not covered by status_map</strong>, ' +
        num(uncovered.reduce(function (n, s) { return n + s.deals_last_run; }, 0)) + ' deal(s) of the last run in them.'
      : 'Every stage is covered by status_map.');
    setHtml(document.querySelector('#stages tbody'), m.stages.map(function (s) {
      var sent = s.status === null ? '<span class="error">not covered: sent as "' + esc(s.id) + '"</span>' : '"' + esc(s.status) + '"';
      return '<tr class="' + (s.status === null ? 'uncovered' : '') + '" data-stage="' + esc(s.id) + '">' + cell('Pipeline', esc(s.pipeline || '—')) +
        cell('Stage', esc(s.name) + ' <span class="muted">' + esc(s.id) + '</span>') + cell('CRM says', esc(s.outcome)) + cell('Sent as', sent) +
        cell('Deals of the last run', num(s.deals_last_run), 'num') + '</tr>';
    }).join(''));
  }

  /** Read again when the selected connection or its last run changes (the server asks the CRM at most every 10 minutes). */
  function refreshStages(c) {
    if (!c || c.connector !== 'generic-crm') { state.stages = null; stagesFor = null; return Promise.resolve(); }
    var key = c.id + ':' + (c.last_run ? c.last_run.id + c.last_run.status : '');
    if (key === stagesFor) return Promise.resolve();
    stagesFor = key;
    return api('GET', '/api/connections/' + encodeURIComponent(c.id) + '/stage-mapping').then(function (res) {
      if (c.id !== selected) return;
      state.stages = res.status === 200 ? res.body : { error: (res.body && res.body.message) || String(res.status) };
    });
  }

  function renderAll() {
    renderAlerts();
    renderConnections();
    if (!selected) { $('detail').hidden = true; return; }
    $('detail').hidden = false;
    $('detail-title').textContent = selected;
    var syncs = state.runs.filter(function (r) { return r.direction !== 'outbound'; });
    renderRun(syncs[0]);
    renderChart(syncs);
    Object.keys(FLOWS).forEach(function (flow) { renderFlowRuns(flow, state.runs.filter(function (r) { return r.flow === flow; })); });
    renderStages();
    renderRejected();
  }

  function listOf(body, key) { return Array.isArray(body) ? body : (body && (body[key] || body.data)) || []; }

  function readOpen(id, limit) {
    return api('GET', '/api/connections/' + encodeURIComponent(id) + '/rejected?limit=' + limit).then(function (res) {
      if (res.status !== 200) return { error: (res.body && res.body.message) || String(res.status), items: [], total: null };
      var items = listOf(res.body, 'rejected');
      return { items: items, total: res.body.total != null ? res.body.total : items.length };
    });
  }

  /** The open rejections of every connection, from GET /api/projects (one request, whatever the number of connections). */
  function takeProjects(res) {
    if (!res || res.status !== 200) return;
    projects = res.body.projects || [];
    state.openCounts = {};
    projects.forEach(function (p) {
      var by = p.open_rejections.by_connection;
      Object.keys(by).forEach(function (id) { state.openCounts[id] = by[id]; });
    });
  }

  function clearFinishedNotice() {
    if (!pending) return;
    var c = state.list.filter(function (x) { return x.id === pending.connection; })[0];
    var run = c && c.last_run;
    if (!c || (run && run.id >= pending.run && run.status !== 'running')) { $('notice').textContent = ''; pending = null; }
  }

  function refresh() {
    refreshAlerts();
    refreshBudget();
    refreshWebhooks();
    return Promise.all([api('GET', '/api/connections'), api('GET', '/api/projects')]).then(function (lists) {
      var res = lists[0];
      state.list = listOf(res.body, 'connections');
      renderHalted(res.body && res.body.schedules_halted);
      takeProjects(lists[1]);
      if (!selected && state.list.length) selected = state.list[0].id;
      clearFinishedNotice();
      $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
      if (!selected) return;
      var id = selected;
      return Promise.all([
        api('GET', '/api/runs?connection=' + encodeURIComponent(id) + '&limit=30'),
        readOpen(id, 50),
        refreshStages(state.list.filter(function (c) { return c.id === id; })[0]),
      ]).then(function (got) {
        var runs = listOf(got[0].body, 'runs');
        var last = runs[0] ? api('GET', '/api/runs/' + runs[0].id + '/rejected?limit=50') : Promise.resolve(null);
        return last.then(function (rej) {
          if (id !== selected) return;
          state.runs = runs;
          state.open = got[1];
          var items = rej ? listOf(rej.body, 'rejected') : [];
          state.lastRunRejected = { items: items, total: rej ? rej.body.total || items.length : 0 };
        });
      });
    }).then(renderAll).catch(function (e) { if (e.message !== 'unauthorized') $('updated').textContent = 'error: ' + e.message; });
  }

  /**
   * A tapped connection's details start below the whole list (2,000 px down on a phone with seven): once they are
   * rendered, go there when they start above the window or in its lower third (a glimpse of the title is not the details).
   */
  function showDetail() {
    var top = $('detail').getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 2 / 3) $('detail').scrollIntoView({ block: 'start' });
  }

  /** Resolves once the connection's details are rendered with its runs. */
  function select(id) {
    if (id === selected) return Promise.resolve();
    selected = id; state.runs = []; state.open = null; state.lastRunRejected = null; state.stages = null; stagesFor = null;
    renderAll();
    return refresh();
  }

  function start() {
    $('login').hidden = true; $('app').hidden = false; $('logout').hidden = false;
    readOnly = false;
    readSession().then(refresh); clearInterval(timer); timer = setInterval(refresh, 2000);
  }
  function logout(message) {
    sessionStorage.removeItem(TOKEN_KEY); clearInterval(timer);
    $('app').hidden = true; $('logout').hidden = true; $('login').hidden = false; $('error').textContent = message || '';
  }

  function startRun(id, action, button) {
    button.disabled = true;
    return api('POST', '/api/connections/' + encodeURIComponent(id) + '/' + action, action === 'resync' ? {} : undefined).then(function (res) {
      var body = res.body || {};
      if (res.status === 202 || res.status === 409) pending = { connection: id, run: body.run_id };
      $('notice').textContent = res.status === 409 ? 'a run of ' + id + ' is already going (#' + body.run_id + ')'
        : res.status === 202 ? 'started run #' + body.run_id + ' of ' + id : 'error: ' + (body.message || res.status);
      return refresh();
    }).catch(function (e) { $('notice').textContent = 'error: ' + e.message; button.disabled = false; });
  }

  /** What a full resync costs, from the connection's recent runs, against the service's hourly budget. */
  function costText(est) {
    if (!est.runs_looked_at) return '<p>No run of this connection yet, so its size is unknown: the cost cannot be estimated.</p>';
    var streams = Object.keys(est.streams).map(function (s) {
      var e = est.streams[s];
      return '<li>' + esc(s) + ': ' + num(e.records) + ' records, ' + num(e.requests) + ' request' + (e.requests === 1 ? '' : 's') + '</li>';
    }).join('');
    var limit = est.daemon_per_hour;
    var hours = limit && est.requests > limit ? ' At this daemon&#39;s limit of ' + num(limit) + ' an hour it takes about ' + Math.ceil(est.requests / limit) +
      ' hours, and the project&#39;s other integrations may be refused meanwhile.' : '';
    return '<p id="resync-cost">About <strong>' + num(est.requests) + ' requests, ' + est.service_share_percent + '% of the hourly budget</strong> ' +
      '(the service allows ' + num(est.service_per_hour) + ' requests an hour per project, for all its integrations' +
      (limit ? '; this daemon takes at most ' + num(limit) + ' of them' : '') + ').' + hours + '</p>' +
      '<ul class="muted">' + streams + '</ul><p class="muted">Batches of ' + num(est.batch_size) + '; record counts from the largest of the last ' + est.runs_looked_at + ' run(s).</p>';
  }

  function confirmResync(id, button) {
    var dialog = $('resync-dialog');
    $('resync-connection').textContent = id;
    setHtml($('resync-text'), '<p class="muted">Estimating the cost…</p>');
    dialog.returnValue = '';
    dialog.onclose = function () { if (dialog.returnValue === 'confirm') startRun(id, 'resync', button); };
    dialog.showModal();
    api('GET', '/api/connections/' + encodeURIComponent(id) + '/resync-estimate').then(function (res) {
      setHtml($('resync-text'), res.status === 200 ? costText(res.body) : '<p class="error">The cost could not be estimated: ' + esc(res.body.message || res.status) + '</p>');
    }).catch(function (e) { setHtml($('resync-text'), '<p class="error">The cost could not be estimated: ' + esc(e.message) + '</p>'); });
  }

  $('login-form').addEventListener('submit', function (e) {
    e.preventDefault(); sessionStorage.setItem(TOKEN_KEY, $('token').value.trim()); $('token').value = ''; start();
  });
  $('logout').addEventListener('click', function () { logout(); });
  $('filter').addEventListener('input', function () { renderConnections(); });
  $('app').addEventListener('click', function (e) {
    var group = e.target.closest('[data-group]');
    if (group) { var name = group.getAttribute('data-group'); collapsed[name] = group.getAttribute('aria-expanded') === 'true'; renderConnections(); return; }
    var toggle = e.target.closest('[data-toggle]');
    if (toggle) { var key = toggle.getAttribute('data-toggle'); expanded[key] = !expanded[key]; renderAll(); return; }
    var target = e.target.closest('[data-action]');
    if (target) {
      var id = target.getAttribute('data-id'), action = target.getAttribute('data-action');
      select(id);
      if (action === 'resync') confirmResync(id, target); else startRun(id, action, target);
      return;
    }
    var row = e.target.closest('#connections tr[data-id]');
    if (row) select(row.getAttribute('data-id')).then(showDetail);
  });

  if (sessionStorage.getItem(TOKEN_KEY)) start(); else logout();
})();
`;
