/** On the embedded sandbox the tracker: project is the sandbox's project 1: a block naming it again is a config error. */
import { configProblems } from '../support/config-problems';

const problems = configProblems;

describe('project numbers on the embedded sandbox', () => {
  it('refuses a block that is the sandbox\'s own project 1, naming the key', () => {
    expect(problems({ projects: { acme: { project: '1' } } }))
      .toEqual(['projects.acme.project: "1" on the embedded sandbox is already the tracker: project (the embedded sandbox\'s own)']);
    expect(problems({ sandbox: { projects: 3 }, projects: { acme: { project: '2' }, beta: { project: '3' } } })).toEqual([]);
    // a block with its own service is another project
    expect(problems({ projects: { far: { project: '1', base_url: 'https://far.example.test/v1', api_key: 'far-key' } } })).toEqual([]);
  });
});
