import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import {
  aboutTheArgument,
  hasFiniteVerb,
  implicitComparison,
  notAClaim,
  unresolvedPronoun,
} from './claims.js';
import { seededRandom, type WriterContext } from './common.js';
import { withoutOpener } from './context.js';
import { paraphrase, withArticle, writeTrueFalse } from './questions.js';

// Our own sentences, not taken from any evaluation passage.
const sentence = (text: string) => analyse(text).sentences[0]!;
const none = () => false;

describe('true/false statements are claims (notAClaim)', () => {
  it('turns down questions and exclamations, even inside closing quotation marks', () => {
    expect(notAClaim(sentence('Who could have built a bridge so long?'))).toBe('question');
    expect(notAClaim(sentence('How bright the harbour looked that night!'))).toBe('exclamation');
    expect(notAClaim(sentence('The baker shut the shop early, and nobody knew why!”'))).toBe(
      'exclamation',
    );
  });

  it('turns down the words around a line of dialogue that the splitter left alone', () => {
    expect(notAClaim(sentence('Lena asked after supper.'))).toBe('speech tag');
    expect(notAClaim(sentence('The old fisherman replied slowly.'))).toBe('speech tag');
    // A claim about speaking that says something stays.
    expect(notAClaim(sentence('The mayor explained that the bridge would close in May.'))).toBe(
      null,
    );
    expect(notAClaim(sentence('Lena asked her uncle to mend the broken gate before winter.'))).toBe(
      null,
    );
  });

  it('turns down a cry or an address that opens with an interjection', () => {
    expect(notAClaim(sentence('O the cold grey stones where the sailor sleeps.'))).toBe(
      'interjection',
    );
    expect(notAClaim(sentence('Alas, the little boat was gone before the dawn.'))).toBe(
      'interjection',
    );
  });

  it('turns down a fragment of verse: an opening "not", or no finite verb', () => {
    expect(notAClaim(sentence('Not though the miller knew the wheel had cracked.'))).toBe(
      'fragment',
    );
    expect(notAClaim(sentence('Ours not to wonder, ours but to plough and sow.'))).toBe('fragment');
    expect(notAClaim(sentence('Far over the hills and the shining lakes of the north.'))).toBe(
      'fragment',
    );
  });

  it('keeps plain statements, inverted ones and those with a verb after "to"', () => {
    expect(notAClaim(sentence('The miller sold his mill to pay the debt.'))).toBeNull();
    expect(notAClaim(sentence('Over the hill came the farmer with his cart.'))).toBeNull();
    expect(notAClaim(sentence('The girls had to walk to school in the snow.'))).toBeNull();
  });

  it('finds a finite verb after infinitives joined by "and"', () => {
    expect(hasFiniteVerb(sentence('To plough and sow kept the farmer busy all spring.'))).toBe(
      true,
    );
    expect(hasFiniteVerb(sentence('Only to plough and sow, and never to rest.'))).toBe(false);
  });
});

describe('a pronoun needs someone before it in the statement (unresolvedPronoun)', () => {
  it('finds "he" or "her" with no person or animal named before it', () => {
    expect(unresolvedPronoun('Slowly, along the lane, he carries the heavy sacks.', none)).toBe(
      'he',
    );
    expect(unresolvedPronoun('Green were her gloves, like the leaves of spring.', none)).toBe(
      'her',
    );
  });

  it('accepts a name, the narrator, or a noun for a person or an animal', () => {
    const named = (w: string) => w === 'Tilda';
    expect(unresolvedPronoun('Tilda packed her bag before the train left.', named)).toBeNull();
    expect(unresolvedPronoun('The narrator closed his book.', none)).toBeNull();
    expect(unresolvedPronoun('The fisherman mended his nets on the beach.', none)).toBeNull();
    expect(unresolvedPronoun('The old fox hid his food under the leaves.', none)).toBeNull();
  });

  it('finds an object "it" whose only thing before it is its own clause\'s subject', () => {
    const t = (text: string) => analyse(text).sentences[0]!.tokens;
    const a = 'A grey cat was sleeping on it.';
    expect(unresolvedPronoun(a, none, t(a))).toBe('it');
    const b = 'The boy found the key and put it in his pocket.';
    expect(unresolvedPronoun(b, none, t(b))).toBeNull();
    const c = 'The bread rose until it was light.';
    expect(unresolvedPronoun(c, none, t(c))).toBeNull();
  });

  it('lets "it" or "they" stand for any thing named before them', () => {
    expect(unresolvedPronoun('The kettle boiled until it was dry.', none)).toBeNull();
    expect(unresolvedPronoun('Quickly and quietly they loaded the wagons.', none)).toBe('they');
  });
});

describe('statements that lean on the sentence before', () => {
  it('turns down a rest of a comparison and two sentences run together', () => {
    expect(notAClaim(sentence('Than rivers run to the sea, the sheep ran down the hill.'))).toBe(
      'fragment',
    );
    const joined = analyse('Bees carry pollen between flowers.').sentences[0]!;
    expect(
      notAClaim({
        ...joined,
        text: 'Bees carry pollen between flowers. Seen from above, a hive is a city.',
      }),
    ).toBe('two sentences');
    expect(notAClaim(sentence('Mr. Poole and Dr. Lane met at St. Ives in May.'))).toBeNull();
  });

  it('finds a comparison whose standard is not in the statement', () => {
    expect(implicitComparison(sentence('The second winter was far less cruel.'))).toBe(true);
    expect(implicitComparison(sentence('The second winter was less cruel than the first.'))).toBe(
      false,
    );
    expect(implicitComparison(sentence('The baker sold more bread in winter.'))).toBe(false);
  });

  it('finds a statement about the argument, not about its subject', () => {
    const never = () => 0;
    expect(
      aboutTheArgument(sentence('Critics raise serious objections.'), never, () => false),
    ).toBe(true);
    expect(aboutTheArgument(sentence('The answer begins with a simple idea.'), never)).toBe(true);
    expect(aboutTheArgument(sentence('Bees carry pollen between flowers.'), never)).toBe(false);
    // "letters" in a text about printing: a noun the text keeps using is its subject.
    expect(
      aboutTheArgument(sentence('The printer could reuse the letters.'), (l) =>
        l === 'letter' ? 5 : 0,
      ),
    ).toBe(false);
  });

  it('drops a linking adverb inside the sentence with its commas', () => {
    expect(withoutOpener('Rain, moreover, is scarce in the valley.')).toBe(
      'Rain is scarce in the valley.',
    );
    expect(withoutOpener('Leaves give off water, too, through small pores.')).toBe(
      'Leaves give off water through small pores.',
    );
    expect(withoutOpener('More important, the dam stores water for summer.')).toBe(
      'The dam stores water for summer.',
    );
    expect(withoutOpener('Of course the ferry left without them.')).toBe(
      'The ferry left without them.',
    );
  });
});

function contextFor(text: string): WriterContext {
  return {
    analysis: analyse(text),
    plan: buildPlan({
      name: 'Claims test',
      subject: 'English',
      grade: '5th Grade (Year 6)',
      type: 'Test',
      referenceText: text,
      descriptionText: '',
    } as Parameters<typeof buildPlan>[0]),
    reference: new ReferenceIndex(text),
    random: seededRandom('claims'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

describe('true/false statements keep their sense when reworded', () => {
  it('moves an opening time phrase only past a clause of one verb', () => {
    const ctx = contextFor(
      'One winter, the fox dug a den under the oak. One spring, the hare found the best clover she had ever tasted.',
    );
    const [a, b] = ctx.analysis.sentences;
    expect(paraphrase(ctx, a!, a!.text)).toBe('The fox dug a den under the oak one winter.');
    expect(paraphrase(ctx, b!, b!.text)).toBe(b!.text);
  });

  it('gives a character the article the text always gives it', () => {
    const ctx = contextFor(
      'A Crow sat on a branch. The Fox came by and looked up at the Crow. Then the Fox spoke to the Crow.',
    );
    expect(withArticle(ctx, 'Crow')).toBe('the Crow');
    const named = contextFor('Tilda sat on a branch. Then Tilda spoke to the fox.');
    expect(withArticle(named, 'Tilda')).toBe('Tilda');
  });

  it('negates no verb of a story told in the past into the present', () => {
    const story =
      'Grandpa was tired after the long walk. He had carried the wood all morning. ' +
      'Grandpa put the kettle on the stove. The kettle was old and black. ' +
      'The children were waiting by the fire. Nobody was cold that night.';
    for (let seed = 0; seed < 4; seed++) {
      const ctx = { ...contextFor(story), random: seededRandom(`claims-${seed}`) };
      for (const q of writeTrueFalse(ctx, 4)) expect(q.prompt).not.toMatch(/\b(?:do|does) not\b/);
    }
  });
});
