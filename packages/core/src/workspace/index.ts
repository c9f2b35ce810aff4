export { Journal, recover, hasJournal, journalDir, SUTURE_DIR, type JournalEntry, type RestoreOutcome } from './journal.js';
export { acquireLock, LockError, type RepoLock } from './lock.js';
export { atomicWrite, sha256 } from './atomic.js';
export { fileDiff, gitApplyCommand } from './patch.js';
export { ALWAYS_DENIED, normalizeEditPath, deniedBy, checkRealPath, matcher, toPosix } from './paths.js';
