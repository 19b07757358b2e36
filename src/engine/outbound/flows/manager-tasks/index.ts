/** The flow as the registry (../registry.ts) lists it: what it says of itself, and what it does. */
export { managerTasksDescription as description } from './manager-tasks.description';
export { managerTasksFlow as flow } from './manager-tasks.flow';
