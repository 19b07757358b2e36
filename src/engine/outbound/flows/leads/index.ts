/** The flow as the registry (../registry.ts) lists it: what it says of itself, and what it does. */
export { leadsDescription as description } from './leads.description';
export { leadsFlow as flow } from './leads.flow';
