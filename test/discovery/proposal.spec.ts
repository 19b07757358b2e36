import type { SourceCatalog } from '../../src/connectors/connector-definition';
import { projectStatuses } from '../../src/discovery/project-statuses';
import { propose } from '../../src/discovery/proposal';

const catalog = (fields: string[]): SourceCatalog => ({
  pipelines: [
    { id: 'p1', name: 'Main', stages: [{ id: 'new', name: 'New', outcome: 'open' }, { id: 'won', name: 'Won', outcome: 'won' }, { id: 'lost', name: 'Lost', outcome: 'lost' }] },
  ],
  deal_statuses: [],
  deal_fields: fields.map((name, i) => ({ id: `f${i}`, name, type: 'text' })),
  contact_fields: [],
  users: [],
});

describe('the proposed mapping', () => {
  it("maps won, lost and open stages to the project's own status ids of each type (the first of a type)", () => {
    const statuses = projectStatuses([
      { id: '10', name: 'Новый', type: 'progress' }, { id: '11', name: 'Оплачен', type: 'paid' }, { id: '12', name: 'Отменён', type: 'canceled' },
      { id: '13', name: 'Возврат', type: 'canceled' },
    ]);
    expect(propose(catalog(['tracker']), statuses).status_map).toEqual({ new: '10', won: '11', lost: '12' });
  });

  it('assumes "1", "2", "0" for a project without a status list, and says so', () => {
    const proposal = propose(catalog(['tracker']), projectStatuses(null));
    expect(proposal.status_map).toEqual({ new: '0', won: '1', lost: '2' });
    expect(proposal.notes).toEqual(['the project lists no order statuses: paid "1", canceled "2", in work "0" assumed (the service\'s defaults)']);
  });

  it.each([['Roistat'], ['ID визита'], ['Номер посещения'], ['Visit number'], ['TRACKER']])('finds the visit field named %s', (name) => {
    expect(propose(catalog(['Комментарий', name]), projectStatuses(null)).visit_field).toBe('f1');
  });

  it('says how to create a visit field when none looks like one', () => {
    const proposal = propose(catalog(['Комментарий', 'Источник']), projectStatuses(null));
    expect(proposal.visit_field).toBeNull();
    expect(proposal.notes[1]).toMatch(/^no deal field looks like the visit number .*: create a text field for deals named "tracker" in the CRM/);
  });

  it('proposes write-back fields only where the CRM has them, never the visit field', () => {
    const proposal = propose(catalog(['tracker visit', 'utm_source', 'UTM Medium', 'Канал', 'Посадочная страница', 'Город', 'Лид ID']), projectStatuses(null));
    expect(proposal.write_back).toEqual({ fields: { utm_source: 'f1', utm_medium: 'f2', channel: 'f3', landing_page: 'f4', city: 'f5' } });
    expect(proposal.lead_delivery).toEqual({ pipeline: 'p1', stage: 'new', lead_id_field: 'f6' });
    expect(propose(catalog(['tracker']), projectStatuses(null)).write_back).toBeNull();
  });

  it('proposes as lead_delivery.stage the first open stage a deal can be created in (not amoCRM\'s unsorted one)', () => {
    const withUnsorted = catalog(['Лид ID']);
    withUnsorted.pipelines[0].stages.unshift({ id: '70010', name: 'Неразобранное', outcome: 'open', creatable: false });
    expect(propose(withUnsorted, projectStatuses(null)).lead_delivery).toEqual({ pipeline: 'p1', stage: 'new', lead_id_field: 'f0' });
  });
});
