export { createNodesV2, createNodesV2 as createNodes, CONFIG_GLOB, TASK_RUNS } from './create-nodes.js';
export { createDependencies } from './dependencies.js';
export { postTasksExecution, MERGED_DIR } from './post-tasks.js';
export { SutureNxOptionsSchema, type SutureNxOptions } from './options.js';
