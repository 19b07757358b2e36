import { STATUS_PAGE_SCRIPT } from './status-page.script';
import { STATUS_PAGE_CSS } from './status-page.styles';
import type { FlowListing } from '../application';
import { flowBlocksHtml, flowsJson } from './flow-blocks.html';

/**
 * One self-contained page (no front-end build): plain HTML, CSS and a small script that polls the
 * admin API. Kept in .ts files so that `tsc` ships it inside dist/ with the rest of the daemon.
 * `flows`: the outbound flows (the registry, through the application), a block each.
 */
export const statusPageHtml = (flows: FlowListing[]): string => /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tracker-sync</title>
<style>${STATUS_PAGE_CSS}</style>
</head>
<body>
<header><h1>tracker-sync</h1><span class="muted" id="updated"></span><span id="notice" role="status"></span><button id="logout" hidden>Forget token</button></header>
<section id="login" hidden>
  <h2>Admin token</h2>
  <p class="muted">Printed once by the daemon at its first start and kept in the file <code>&lt;data_dir&gt;/admin-token</code> (<code>./data/admin-token</code> by default; the daemon's start line names it), or the <code>ADMIN_TOKEN</code> you set. Kept in this browser tab only.</p>
  <form id="login-form"><input id="token" type="password" autocomplete="off" placeholder="token"><button class="primary" type="submit">Open</button></form>
  <p id="error" class="error"></p>
</section>
<main id="app" hidden>
  <p id="halted" class="error banner" role="alert" hidden></p>
  <section>
    <h2>Connections</h2>
    <div class="filter"><input id="filter" type="search" autocomplete="off" placeholder="Filter by project or connection" aria-label="Filter by project or connection"> <span id="filter-count" class="muted"></span></div>
    <table id="connections" class="cards">
      <thead><tr><th>Connection</th><th>Connector</th><th>State</th><th>Last run</th><th>Read · sent · unchanged · rejected</th><th>Open rejections</th><th>Next run</th><th></th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section id="budget-block" hidden>
    <h2>Waiting on the request budget</h2>
    <p class="muted">The project's budget (<code>tracker.rate_limit</code>) is shared by every daemon and CLI process of this store; requests wait for their turn instead of provoking 429s.</p>
    <p id="budget-text"></p>
  </section>
  <section id="webhooks-block" hidden>
    <h2>Webhooks</h2>
    <p class="muted">The last call of each connection's CRM to <code>POST /hooks/{connection}</code> (config <code>webhook</code>); polling on the schedule still catches what a webhook missed.</p>
    <table id="webhooks" class="cards"><thead><tr><th>Connection</th><th>Last call</th><th>Outcome</th><th>Last accepted</th><th>Run</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="alerts-block" hidden>
    <h2>Active alerts</h2>
    <p class="muted">Conditions alerted and not recovered yet (config <code>alerts</code>; history in <code>GET /api/alerts</code>).</p>
    <table id="active-alerts" class="cards"><thead><tr><th>Connection</th><th>Alerts</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="alert-failures-block" hidden>
    <h2>Alert messages not delivered</h2>
    <p class="muted">Every attempt of these failed (the channel is down or refuses them): nobody got them. A condition's alert is tried again at a later check, with a growing wait; its receiver and the reason are below (<code>GET /api/alerts?status=failed</code>).</p>
    <table id="alert-failures" class="cards"><thead><tr><th>When</th><th>Alert</th><th>Event</th><th>Connection</th><th>Attempts</th><th>Why</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="detail" hidden>
    <h2 id="detail-title"></h2>
    <div id="last-run"></div>
    <h2 class="sub">Records sent per run</h2>
    <div id="chart"></div>
    ${flowBlocksHtml(flows)}
    <div id="stages-block" hidden>
      <h2 class="sub">Stage mapping</h2>
      <p class="muted">Each CRM stage and the status its deals are sent with (<code>status_map</code>). A stage no key covers is sent as the stage id itself, which the service skips unless the project knows it: add it to <code>status_map</code> (<code>npm run cli -- discover &lt;connection&gt;</code> proposes one).</p>
      <p id="stages-text"></p>
      <table id="stages" class="cards"><thead><tr><th>Pipeline</th><th>Stage</th><th>CRM says</th><th>Sent as</th><th class="num">Deals of the last run</th></tr></thead><tbody></tbody></table>
    </div>
    <h2 class="sub" id="open-rejected-title">Open rejections</h2>
    <p class="muted">Records rejected and not fixed yet, whichever run saw them last: one leaves the list when a later run sends it (fix its source row) or when its stream no longer holds it.</p>
    <table id="open-rejected" class="cards"><thead><tr><th>Stream</th><th>Record</th><th>Where</th><th>Field</th><th>Reason</th><th>First seen</th><th>Last seen</th></tr></thead><tbody></tbody></table>
    <h2 class="sub" id="rejected-title">Rejected records of the last run</h2>
    <table id="rejected" class="cards"><thead><tr><th>Stream</th><th>Record</th><th>Where</th><th>Field</th><th>Reason</th></tr></thead><tbody></tbody></table>
  </section>
</main>
<dialog id="resync-dialog" aria-labelledby="resync-heading">
  <form method="dialog">
    <h2 id="resync-heading">Resync <span id="resync-connection"></span>?</h2>
    <p>A full run reads every record again and sends it again, its fingerprints ignored.</p>
    <div id="resync-text"></div>
    <div class="buttons"><button value="cancel" id="resync-cancel">Cancel</button><button value="confirm" class="primary" id="resync-confirm">Resync</button></div>
  </form>
</dialog>
<script type="application/json" id="flows">${flowsJson(flows)}</script>
<script>${STATUS_PAGE_SCRIPT}</script>
</body>
</html>
`;
