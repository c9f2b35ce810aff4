import { twice } from '../src/math.mjs';

test('twice', () => expect(twice(2)).toBe(4));
