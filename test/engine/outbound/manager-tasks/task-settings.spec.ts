import connector from '../../../../connectors/generic-crm';
import { managerTasksFlow } from '../../../../src/engine/outbound/flows/manager-tasks/manager-tasks.flow';
import { ConnectorRegistry } from '../../../../src/connectors/connector-registry';

const registry = new ConnectorRegistry();
registry.register(connector);
const amocrm = { preset: 'amocrm', base_url: 'https://x.amocrm.ru', token: 't' };
const plan = (settings: object) => managerTasksFlow.planOf(connector, registry.instantiateSettings('generic-crm', settings));

describe('manager_tasks: its settings block', () => {
  it("is accepted in a preset's connection and switches the flow on, with the defaults", () => {
    expect(registry.validateSettings('generic-crm', { ...amocrm, manager_tasks: { days: 5 } }, 'connections[0]')).toEqual([]);
    expect(plan(amocrm)).toBeNull();
    expect(plan({ ...amocrm, manager_tasks: { days: 5 } })).toMatchObject({ days: 5, windowDays: 30, dueHours: 24, schedule: '0 * * * *' });
  });

  it('a bad value fails the plan naming the key', () => {
    expect(() => plan({ ...amocrm, manager_tasks: { days: 0, colour: 'red' } })).toThrow(/settings\.manager_tasks\.colour: unknown key; settings\.manager_tasks\.days: days must not be less than 1/);
  });

  it('the flow names its settings key, the actions it needs and its state', () => {
    expect({ key: managerTasksFlow.settingsKey, stream: managerTasksFlow.stream, actions: managerTasksFlow.actions })
      .toEqual({ key: 'manager_tasks', stream: 'manager_tasks', actions: { required: ['find_tasks', 'create_task'], optional: ['deal_owner', 'read_tasks'] } });
  });
});
