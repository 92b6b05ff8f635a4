import { describe, expect, it } from 'vitest';
import { CARDINALS, numberValue, ORDINALS } from './number-words.js';

describe('number words', () => {
  it('reads digits and words', () => {
    expect(numberValue('1,300')).toBe(1300);
    expect(numberValue('fifty')).toBe(50);
    expect(numberValue('Seventeen')).toBe(17);
    expect(numberValue('ninety')).toBe(90);
    expect(numberValue('')).toBeNaN();
    expect(numberValue('several')).toBeNaN();
  });
  it('has cardinals and ordinals', () => {
    expect(CARDINALS.twelve).toBe(12);
    expect(CARDINALS.thousand).toBe(1000);
    expect(ORDINALS.third).toBe(3);
  });
});
