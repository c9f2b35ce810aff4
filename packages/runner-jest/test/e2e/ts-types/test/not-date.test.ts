import { expect, test } from '@jest/globals';
import { isDate } from '../src/dates';

test('a string is not a date', () => expect(isDate('2020-01-01')).toBe(false));
