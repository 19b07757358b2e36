import { describeFlow, OUTBOUND_FLOW_NAMES } from '../../src/application/flow-descriptions';
import { flowBlocksHtml, flowsJson } from '../../src/status-page/flow-blocks.html';
import { statusPageHtml } from '../../src/status-page/status-page.html';

/**
 * The status page's flow blocks come from the registry (each flow's description, src/engine/outbound/flows/, listed by the application's
 * FlowRunsService): a block per flow, named by the flow, and the flows' counters for the script; a flow the page has
 * no words for still gets its block. The blocks in a browser: test/status-page/status-page.spec.ts.
 */
describe('status page: a block per outbound flow', () => {
  const flows = OUTBOUND_FLOW_NAMES.map((name) => describeFlow(name));

  it('holds a block per flow of the registry, and the flows for the script', () => {
    const html = statusPageHtml(flows);
    for (const { name } of flows) expect(html).toContain(`<div id="${name.replace(/_/g, '-')}-block" hidden>`);
    expect(html).toContain('<h2 class="sub">Write-back runs</h2>');
    expect(html).toContain('<h2 class="sub">Lead-delivery runs</h2>');
    const json = /<script type="application\/json" id="flows">(.*?)<\/script>/.exec(html)![1];
    expect(JSON.parse(json)).toEqual(Object.fromEntries(flows.map(({ name, title, counters }) => [name, { title, counters }])));
  });

  it("says above each flow's block what the flow does and what its counters mean, from the registry", () => {
    const html = flowBlocksHtml(flows);
    for (const { name, about, counters } of flows) {
      const block = new RegExp(`<div id="${name.replace(/_/g, '-')}-block" hidden>[\\s\\S]*?<p class="muted">(.*?)</p>`).exec(html)![1];
      expect(about).toBeTruthy();
      for (const counter of Object.keys(counters)) expect(block).toContain(`<code>${counter}</code>: `);
      expect(block).not.toContain('Runs of the outbound flow');
    }
    expect(html).toContain('<code>settings.manager_tasks.days</code>');
    expect(html).toContain("<code>already_created</code>: deals whose task was made earlier (stored, or found in the CRM): nothing sent");
  });

  it('gives a flow it has no words for a block of its own, and keeps its JSON inside the script element', () => {
    // a flow the registry may gain (the listing's type knows today's names only)
    const html = flowBlocksHtml([{ name: 'tasks', title: 'tasks for managers', counters: { made: 'tasks made' }, metric: { name: 'm', help: 'h' } }] as never);
    expect(html).toContain('<div id="tasks-block" hidden>');
    expect(html).toContain('<h2 class="sub">Tasks-for-managers runs</h2>');
    expect(flowsJson([{ name: 'x', title: '</script>', counters: {}, metric: { name: 'm', help: 'h' } }] as never)).not.toContain('</script>');
  });
});
