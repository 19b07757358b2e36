/**
 * The connector contract, as plugins import it: `import { defineConnector, Deal } from 'tracker-sync/connector'`.
 * The plugin loader maps that name to this file wherever the plugin lives (see connectors/plugin-resolution.ts);
 * the type checker maps it through `paths` in tsconfig.json.
 */
export * from './connectors/canonical';
export * from './connectors/connector-definition';
export { multiValues, normalizedList, normalizeEmail, normalizePhone } from './connectors/contact-values';
export * from './connectors/webhook-capability';
