import { CASES as gtest } from './cases-gtest.mjs';
import { CASES as jest } from './cases-jest.mjs';
import { CASES as pytest } from './cases-pytest.mjs';
import { CASES as shell } from './cases-shell.mjs';

/** Every case, by runner, in the order they run. */
export const CASES = { pytest, jest, gtest, shell };
