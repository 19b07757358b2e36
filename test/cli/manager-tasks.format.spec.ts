import { managerTasksPreviewLines } from '../../src/cli/output/manager-tasks.format';

/** The manager-tasks dry run in words names each deal's manager as far as it is known (the CLI e2e: manager-tasks-command.spec.ts). */
describe('manager-tasks dry run in words', () => {
  const task = { created: '2026-11-20', title: 'Ask the client', text: 'Deal 1: no ad source.' };
  const counters = { due: 3, created: 0, already_created: 0, rejected: 0 };

  it('names the manager by id and name, by id alone when the service has no such manager, and says nothing when the deal synced without one', () => {
    const lines = managerTasksPreviewLines({
      connectionId: 'crm',
      counters,
      tasks: [
        { ...task, deal: '1', manager: { id: '501', name: 'Анна Петрова' } },
        { ...task, deal: '2', manager: { id: '777', name: null } },
        { ...task, deal: '3', manager: null },
      ],
    });
    expect(lines.filter((line) => line.startsWith('deal '))).toEqual([
      'deal 1 (created 2026-11-20, no visit) → task for its responsible manager 501 (Анна Петрова): «Ask the client»',
      'deal 2 (created 2026-11-20, no visit) → task for its responsible manager 777: «Ask the client»',
      'deal 3 (created 2026-11-20, no visit) → task for its responsible manager: «Ask the client»',
    ]);
  });
});
