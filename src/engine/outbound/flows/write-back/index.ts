/** The flow as the registry (../registry.ts) lists it: what it says of itself, and what it does. */
export { writeBackDescription as description } from './write-back.description';
export { writeBackFlow as flow } from './write-back.flow';
