import { describe, expect, it } from 'vitest';
import { checkMaterialEdit, locateEditMessage } from './material-edits.js';

const mc = (prompt: string, choices = ['Anna', 'Tomas']) => ({
  id: prompt,
  kind: 'multiple_choice',
  prompt,
  choices,
  answerIndex: 0,
  evidence: 'Anna left the farmhouse.',
});
const doc = (...questions: unknown[]) => ({
  title: 'The mill',
  type: 'Quiz',
  sections: [
    { title: 'Multiple choice', questions: questions.slice(0, 2) },
    { title: 'More', questions: questions.slice(2) },
  ],
});

describe('checkMaterialEdit', () => {
  it('accepts a valid edit and fills the defaults', () => {
    const result = checkMaterialEdit(doc(mc('Who left?'), mc('Who waited?')));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document.generator.unverified).toBe(false);
  });

  it('numbers questions across parts, as they are printed', () => {
    const result = checkMaterialEdit(
      doc(mc('One?'), mc('Two?'), mc('Three?'), mc('Four?', ['Anna', ' anna! '])),
    );
    expect(result).toEqual({
      ok: false,
      issue: {
        target: { kind: 'question', number: 4 },
        message: 'Question 4: the choices must be different.',
      },
    });
    const schema = checkMaterialEdit(doc(mc('One?'), mc('Two?'), { ...mc('Three?'), prompt: '' }));
    expect(schema.ok || schema.issue.message).toBe('Question 3: the prompt is required.');
  });
});

describe('locateEditMessage', () => {
  it('finds the question, word, activity or part a message names', () => {
    expect(locateEditMessage('Question 12: the choices must be different.')).toEqual({
      kind: 'question',
      number: 12,
    });
    expect(locateEditMessage('Vocabulary word 2: the definition is required.')).toEqual({
      kind: 'vocabulary',
      number: 2,
    });
    expect(locateEditMessage('Activity 1: the minutes must be at least 1.')).toEqual({
      kind: 'activity',
      number: 1,
    });
    expect(locateEditMessage('The title is required.')).toEqual({ kind: 'material' });
  });
});
