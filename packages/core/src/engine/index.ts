export { runGate, newRunId, UnrecoveredJournalError } from './gate.js';
export { validateEdits, MAX_EDIT_BYTES, type PlannedWrite, type ProposalCheck, type ValidateInput } from './validate.js';
export { checkTestWeakening, type WeakeningVerdict } from './weakening.js';
export { applyScopePolicy } from './scope-policy.js';
export { buildFixRequest, sourceSlices, trimEvidence, EVIDENCE_LINES } from './fix-request.js';
export { isTestFile } from './test-files.js';
