import { expect, test } from '@jest/globals';
import { isDate } from '../src/dates';

test('a date is a date', () => expect(isDate(new Date())).toBe(true));
