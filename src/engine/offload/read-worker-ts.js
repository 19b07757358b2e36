/**
 * The worker's entry under ts-jest (tests run the TypeScript sources, and a worker thread gets no jest
 * transform): registers ts-node's transpile (no type check) in the thread, then loads read-worker.ts.
 * From dist/ the pool loads the compiled read-worker.js instead (offload-pool.ts).
 */
require('ts-node').register({ transpileOnly: true, project: require('path').resolve(__dirname, '../../../tsconfig.json') });
module.exports = require('./read-worker.ts');
