// The script runner of @suture/core/testing (each tests/*.test.mjs is a test), as a local plugin file.
export { scriptRunner as default } from '@suture/core/testing';
