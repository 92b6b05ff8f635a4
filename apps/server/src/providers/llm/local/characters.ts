import type { Analysis, NameInfo, Sentence } from './analyse.js';
import { detectGenre, tellsAStory } from './genre.js';
import { normaliseForMatch } from '../quality.js';
import { capitalise } from './common.js';
import { lexFileOf, lookup, synsetAt } from './wordnet.js';

/**
 * Who the people of a passage are. A name is a person only when nothing says otherwise
 * (WordNet knows "Bible" as a book, "Mainz" as a city, "Great Lakes" as lakes), it is
 * mentioned twice or followed by he/she, and it is the subject of an action verb at least
 * once. In a story such people are its characters; in an informational text they are
 * historical figures, and no question treats them as characters.
 */

/** Names invoked rather than acting ("God knows"): never characters. */
const NOT_PEOPLE = new Set([
  'god',
  'heaven',
  'heavens',
  'providence',
  'fortune',
  'christ',
  'jesus',
  'lord',
  'bible',
  'scripture',
  'scriptures',
]);

const PERSON_LEXFILE = 18;

/**
 * What WordNet says a capitalised name is: 'person', 'other' (a book, place, group, title…)
 * or null when it does not know it as a name ("Tom" is only a male turkey to WordNet, in lower case).
 */
export function wordNetKind(name: string): 'person' | 'other' | null {
  const tries = [name, name.split(/\s+/).at(-1)!].filter(
    (n, i, all) => all.indexOf(n) === i && n.length > 2,
  );
  for (const n of tries) {
    const entry = lookup(n, 'noun');
    if (!entry) continue;
    for (const offset of entry.offsets.slice(0, 6)) {
      const synset = synsetAt(offset, 'noun');
      if (!synset) continue;
      // Only senses where WordNet writes the word with a capital are about the name.
      const asName = synset.words.some(
        (w) => w.toLowerCase() === n.toLowerCase() && /^\p{Lu}/u.test(w),
      );
      if (!asName) continue;
      // The name's first sense as a name decides ("Amazon" is a river before a warrior).
      return synset.lexFile === PERSON_LEXFILE ? 'person' : 'other';
    }
  }
  return null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The name's uses as the subject of a verb: "Tom climbed", "Molly studied it carefully". */
function actsIn(s: Sentence, name: string): boolean {
  const at = s.text.indexOf(name);
  if (at === -1) return false;
  const end = at + name.length;
  const after = s.tokens.filter((t) => t.start >= end).slice(0, 3);
  // A possessive ("Gutenberg's most famous work") or an object is not the subject.
  if (/^[’']s\b/.test(s.text.slice(end))) return false;
  for (const t of after) {
    if (t.pos === 'VERB') return true;
    if (t.pos !== 'AUX' && t.pos !== 'ADV' && t.pos !== 'PART') return false;
  }
  return false;
}

const PLACE_PREPOSITION = /\b(?:in|into|near|across|through)\s+$/i;

/**
 * True when the text uses this name where a place stands: "in Avonlea", "into Mainz" (a person is
 * spoken of with "to", "at" or "from", but not with "in"). A place is no character.
 */
export function usedAsPlace(analysis: Analysis, name: string): boolean {
  const re = new RegExp(`\\b${escape(name)}\\b(?![’']s)`, 'g');
  const text = analysis.sentences.map((s) => s.text).join(' ');
  for (const m of text.matchAll(re)) {
    if (PLACE_PREPOSITION.test(text.slice(Math.max(0, m.index - 12), m.index))) return true;
  }
  return false;
}

/** "… Tom. He …": the name is taken up by he or she. */
function takenUpByPronoun(analysis: Analysis, name: string): boolean {
  const re = new RegExp(`\\b${escape(name)}\\b`);
  for (const s of analysis.sentences) {
    if (!re.test(s.text)) continue;
    const rest = s.text.slice(s.text.search(re) + name.length);
    if (/\b(?:he|she|him|her)\b/i.test(rest)) return true;
    const next = analysis.sentences[s.index + 1];
    if (next && /^(?:He|She)\b/.test(next.text)) return true;
  }
  return false;
}

export interface People {
  /** People who act in the passage, most mentioned first. */
  people: string[];
  /** The same, when the passage tells a story: its characters (empty for informational texts). */
  characters: string[];
}

const cache = new WeakMap<Analysis, People>();

/** The passage's verified people and, in a story, its characters. */
export function peopleOf(analysis: Analysis): People {
  const cached = cache.get(analysis);
  if (cached) return cached;
  const verified: NameInfo[] = [];
  for (const info of analysis.names.values()) {
    if (info.kind !== 'person') continue;
    if (NOT_PEOPLE.has(info.name.toLowerCase())) continue;
    const speaker = analysis.prepared.speakers.includes(info.name);
    if (!speaker) {
      if (wordNetKind(info.name) === 'other') continue;
      // "the Amazon", "the Mississippi": a name that takes "the" is a place or thing.
      const withThe = new RegExp(`\\bthe\\s+${escape(info.name)}\\b`, 'gi');
      const uses = analysis.sentences.reduce((n, s) => n + (s.text.match(withThe)?.length ?? 0), 0);
      if (uses * 2 >= info.count) continue;
      // "Water" opening two sentences is a common noun, not a name: a name shows its capital mid-sentence.
      const midSentence = new RegExp(`\\S\\s+${escape(info.name)}\\b`);
      if (
        [info.name, info.name.replace(/e?s$/, ''), info.name.replace(/ies$/, 'y')].some((n) =>
          lookup(n.toLowerCase(), 'noun'),
        ) &&
        !analysis.sentences.some((s) => midSentence.test(s.text))
      )
        continue;
      if (info.count < 2 && !takenUpByPronoun(analysis, info.name)) continue;
      const re = new RegExp(`\\b${escape(info.name)}\\b`);
      if (!analysis.sentences.some((s) => re.test(s.text) && actsIn(s, info.name))) continue;
    }
    verified.push(info);
  }
  // "Henry" and "Henry Clerval" are one person: keep the most mentioned name of each.
  verified.sort((a, b) => b.count - a.count);
  const people: string[] = [];
  for (const info of verified) {
    const aliases = analysis.aliases.get(info.name) ?? new Set<string>();
    if (people.some((p) => aliases.has(p))) continue;
    people.push(info.name);
  }
  const result = {
    people,
    characters: tellsAStory(detectGenre(analysis)) ? people : [],
  };
  cache.set(analysis, result);
  return result;
}

/**
 * True when a sentence is about `name` as its subject, in narration: a model answer built on it
 * describes that person, not someone else who speaks of them.
 */
export function isAbout(s: Sentence, name: string): boolean {
  if (s.hasQuotes) return false;
  const at = s.text.search(new RegExp(`\\b${escape(name)}\\b`));
  if (at === -1) return false;
  const firstVerb = s.tokens.find((t) => t.pos === 'VERB' || t.pos === 'AUX');
  return !firstVerb || at < firstVerb.start;
}

/** A character of the story as options show it, and how to find the sentences about it. */
export interface CastMember {
  label: string;
  /** Finds the character in a sentence. */
  pattern: RegExp;
}

const KIN =
  /\b(?:Mom|Mum|Mommy|Mummy|Dad|Daddy|Papa|Mama|Pa|Ma|Grandpa|Grandma|Granny|Grandad|Nana)(?: \p{Lu}[\p{Ll}]+)?\b|\b(?:Uncle|Aunt|Auntie|Grandpa|Grandma|Granny) \p{Lu}[\p{Ll}]+\b/gu;
/** Things a fable may make characters of (a straw, a coal, a bean). */
const FABLE = new Set([6, 13, 17, 20, 27]);
const castCache = new WeakMap<Analysis, CastMember[]>();

/**
 * The characters of a story: its verified people, family members named as names ("Dad",
 * "Grandpa Leo"), the narrator of a first-person story, and animals or people named by a
 * common noun with "the" that act at least once and recur ("the fox"). Empty for texts that
 * are not stories.
 */
export function storyCast(analysis: Analysis): CastMember[] {
  const cached = castCache.get(analysis);
  if (cached) return cached;
  const out: CastMember[] = [];
  const add = (label: string, pattern: RegExp) => {
    if (out.some((m) => normaliseForMatch(m.label) === normaliseForMatch(label))) return;
    // "I’m" read as a name, "Mas’r Jaggers" in dialect: not a name to offer as an option.
    if (!/^(?:the )?\p{Lu}?[\p{L}. -]+$/u.test(label)) return;
    out.push({ label, pattern });
  };
  if (tellsAStory(detectGenre(analysis)) && !analysis.prepared.isPlay) {
    const text = analysis.sentences.map((s) => s.text).join(' ');
    for (const p of peopleOf(analysis).people) {
      if (usedAsPlace(analysis, p)) continue;
      const aliases = [p, ...(analysis.aliases.get(p) ?? [])].map(escape).join('|');
      add(p, new RegExp(`\\b(?:${aliases})\\b`));
    }
    // "Rosa" (WordNet's rose genus), "Hopper": in a story, a name of the person kind named twice
    // that acts (a verb right after it) is a character, unless WordNet makes it a place.
    for (const info of analysis.names.values()) {
      if (info.kind !== 'person' || info.count < 2) continue;
      if (!/^\p{Lu}[\p{L}. -]+$/u.test(info.name)) continue;
      if (lexFileOf(info.name.replace(/\s+/g, '_'), 'noun') === 15) continue;
      if (usedAsPlace(analysis, info.name)) continue;
      if (out.some((m) => m.pattern.test(info.name))) continue;
      // "the Groom", "the Spirit": a title or a common noun with a capital, not a name.
      const withThe = new RegExp(`\\bthe\\s+${escape(info.name)}\\b`, 'i');
      if (analysis.sentences.some((s) => withThe.test(s.text))) continue;
      const acts = new RegExp(`\\b${escape(info.name)} (?:\\p{Ll}+ly )?\\p{Ll}+`, 'u');
      const verbAfter = analysis.sentences.some((s) => {
        const m = acts.exec(s.text);
        if (!m) return false;
        const at = s.tokens.findIndex((t) => t.start === m.index);
        const next = s.tokens[at + info.name.split(' ').length];
        return !!next && (next.pos === 'VERB' || next.pos === 'AUX');
      });
      if (verbAfter) add(info.name, new RegExp(`\\b${escape(info.name)}\\b`));
    }
    const kin = new Map<string, number>();
    for (const m of text.matchAll(KIN)) kin.set(m[0], (kin.get(m[0]) ?? 0) + 1);
    // "my dad", "my mom" in a first-person story: the same people as "Dad", "Mom".
    for (const m of text.matchAll(/\b(?:[Mm]y|[Oo]ur) (mom|mum|dad|grandpa|grandma|granny)\b/g)) {
      const label = capitalise(m[1]!);
      kin.set(label, (kin.get(label) ?? 0) + 1);
    }
    for (const [k] of kin) {
      // "Grandpa" and "Grandpa Leo" are one person: keep the full name.
      if ([...kin.keys()].some((o) => o !== k && o.startsWith(`${k} `))) continue;
      if (out.some((m) => m.pattern.test(k))) continue;
      // ("my dad" is Dad in a first-person story.)
      add(k, new RegExp(`\\b(?:${escape(k)}|(?:[Mm]y|[Oo]ur) ${escape(k.toLowerCase())})\\b`));
    }
    // A narrator who tells the story as "I" outside anyone's speech (a character's "I" in
    // dialogue is not one).
    const speech = speechSentences(analysis);
    const narrated = analysis.sentences.filter((s) => !s.hasQuotes && !speech.has(s.index));
    const subjectI = narrated.filter((s) =>
      s.tokens.some((t, i) => t.value === 'I' && s.tokens[i + 1]?.pos !== 'PUNCT'),
    ).length;
    // Only in a short text: in a novel or a memoir the narrator has a name among the others
    // ("Miss Eyre", "Franklin"), which would be a second right answer. A name the narrator
    // gives themself ("My name is Sam") is not another character.
    const words = analysis.sentences.reduce((n, s) => n + s.words, 0);
    if (subjectI >= 2 && subjectI * 10 >= narrated.length && words <= 1500) {
      const own = /\b(?:my name is|I am|I'm|I’m|call(?:ed)? me|named me) (\p{Lu}\p{Ll}+)/gu;
      for (const m of text.matchAll(own)) {
        const at = out.findIndex((x) => x.pattern.test(m[1]!));
        if (at >= 0) out.splice(at, 1);
      }
      add('the narrator', /\b(?:I|me|we|us)\b/);
    }
    // "the fox": a person or animal noun that opens a clause at least once and recurs; in a
    // fable, a thing that does so again and again ("the straw", "the coal").
    const counts = new Map<string, number>();
    const acts = new Map<string, number>();
    for (const s of analysis.sentences) {
      s.tokens.forEach((t, i) => {
        // ("the Lion" of a fable is capitalised and may be read as a name.)
        if (!['NOUN', 'PROPN'].includes(t.pos) || t.value.toLowerCase() !== t.lemma.toLowerCase())
          return;
        if (t.pos === 'PROPN' && lexFileOf(t.lemma.toLowerCase(), 'noun') !== 5) return;
        // "the wolf", "a hungry wolf"
        let d = i - 1;
        while (s.tokens[d]?.pos === 'ADJ') d--;
        if (!/^(?:the|a|an)$/i.test(s.tokens[d]?.value ?? '')) return;
        const lemma = t.lemma.toLowerCase();
        counts.set(lemma, (counts.get(lemma) ?? 0) + 1);
        const before = s.tokens[d - 1];
        const opens =
          d === 0 ||
          (!!before && /^(?:,|and|but|then|so|;|when|while|as|until)$/i.test(before.value)) ||
          (!!before && before.pos === 'NOUN' && d <= 2);
        // ("the Mouse piteously entreated")
        const next = s.tokens[i + 1]?.pos === 'ADV' ? s.tokens[i + 2] : s.tokens[i + 1];
        if (opens && next && (next.pos === 'VERB' || next.pos === 'AUX'))
          acts.set(lemma, (acts.get(lemma) ?? 0) + (next.pos === 'VERB' ? 1 : 0.5));
      });
    }
    // Only in a short story: in a novel "the lawyer", "the girl", "the dog" are most often
    // characters with names ("Mr. Utterson", "Buck"), and a second option for the same one.
    // People by a common noun only when no one has a name; things only in a fable of no people.
    const short = words <= 1500;
    const named = out.some((m) => m.label !== 'the narrator');
    for (const [noun, n] of counts) {
      if (!short) break;
      if (/^(?:narrator|person|people|man|woman|one|thing|way|day|time)$/.test(noun)) continue;
      const lex = lexFileOf(noun, 'noun');
      const acted = acts.get(noun) ?? 0;
      const character =
        lex === 5 || (lex === PERSON_LEXFILE && !named)
          ? n >= 2 && acted >= 0.5
          : FABLE.has(lex) && out.length === 0 && n >= 3 && acted >= 2;
      if (character)
        add(`the ${noun}`, new RegExp(`\\b(?:the|a|an) (?:[a-z]+ )?${escape(noun)}\\b`, 'i'));
    }
  }
  castCache.set(analysis, out);
  return out;
}

const speechCache = new WeakMap<Analysis, Set<number>>();

/**
 * The sentences inside a character's speech that carry no quotation mark of their own: the
 * middle of a quotation of several sentences (“I waited. I knew he would come. …”). Their
 * "I" is the speaker, not the narrator, and they are not the story's narration.
 */
export function speechSentences(analysis: Analysis): Set<number> {
  const cached = speechCache.get(analysis);
  if (cached) return cached;
  const out = new Set<number>();
  let open = false;
  let paragraph = -1;
  for (const s of analysis.sentences) {
    if (s.paragraph !== paragraph) {
      open = false;
      paragraph = s.paragraph;
    }
    if (open) out.add(s.index);
    for (const ch of s.text) {
      if (ch === '“') open = true;
      else if (ch === '”') open = false;
      else if (ch === '"') open = !open;
    }
  }
  speechCache.set(analysis, out);
  return out;
}
