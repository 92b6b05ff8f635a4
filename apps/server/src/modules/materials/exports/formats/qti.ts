import type { MaterialDocument, Question } from '@chapterwise/shared';
import {
  feedbackOf,
  fileBase,
  oneLine,
  questionsOf,
  xmlEscape,
  type ExportInput,
  type ExportResult,
  type Exporter,
} from '../common.js';
import { toZip } from '../files.js';

/*
 * IMS QTI 1.2 in a content package: the .zip Canvas (Classic Quizzes), Blackboard and
 * Brightspace import. Each material is one <assessment> in its own folder, listed in
 * imsmanifest.xml as a resource of type imsqti_xmlv1p2. The items follow the IMS QTI ASI 1.2.1
 * DTD (tests validate them with xmllint) and carry Canvas's item metadata (question_type,
 * points_possible), which the other two ignore.
 *
 * Kinds: multiple choice and true/false (response_lid, one correct label), fill in the blank as
 * a short-answer item (response_str with the answer as the correct string), short answer and
 * discussion as essays (graded by the teacher; the model answer in the general feedback),
 * matching as one response_lid per left-hand item. The evidence is the general feedback.
 * Texts are text/plain, escaped: "</xml>" stays text.
 */

const POINTS = 1;

function mattext(text: string): string {
  return `<material><mattext texttype="text/plain">${xmlEscape(oneLine(text))}</mattext></material>`;
}

function metadata(fields: Record<string, string>): string {
  return `<qtimetadata>${Object.entries(fields)
    .map(
      ([label, entry]) =>
        `<qtimetadatafield><fieldlabel>${label}</fieldlabel><fieldentry>${xmlEscape(entry)}</fieldentry></qtimetadatafield>`,
    )
    .join('')}</qtimetadata>`;
}

const OUTCOMES =
  '<outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>';
const SHOW_FEEDBACK =
  '<respcondition continue="Yes"><conditionvar><other/></conditionvar><displayfeedback feedbacktype="Response" linkrefid="general_fb"/></respcondition>';

function generalFeedback(text: string): string {
  return `<itemfeedback ident="general_fb"><flow_mat>${mattext(text)}</flow_mat></itemfeedback>`;
}

/** Canvas's name of each kind. */
const CANVAS_TYPES: Record<Question['kind'], string> = {
  multiple_choice: 'multiple_choice_question',
  true_false: 'true_false_question',
  fill_blank: 'short_answer_question',
  short_answer: 'essay_question',
  discussion: 'essay_question',
  matching: 'matching_question',
};

function item(question: Question, number: number, id: string): string {
  const head = `<item ident="${id}" title="Question ${number}"><itemmetadata>${metadata({
    question_type: CANVAS_TYPES[question.kind],
    points_possible: POINTS.toFixed(1),
  })}</itemmetadata>`;
  let presentation: string;
  let processing: string;
  let feedback = feedbackOf(question);
  switch (question.kind) {
    case 'multiple_choice':
    case 'true_false': {
      const choices = question.kind === 'true_false' ? ['True', 'False'] : question.choices;
      const correct =
        question.kind === 'true_false' ? (question.answer ? 0 : 1) : question.answerIndex;
      const labels = choices
        .map((c, i) => `<response_label ident="${id}_c${i + 1}">${mattext(c)}</response_label>`)
        .join('');
      presentation = `${mattext(question.prompt)}<response_lid ident="response1" rcardinality="Single"><render_choice>${labels}</render_choice></response_lid>`;
      processing = `${SHOW_FEEDBACK}<respcondition continue="No"><conditionvar><varequal respident="response1">${id}_c${correct + 1}</varequal></conditionvar><setvar action="Set" varname="SCORE">100</setvar></respcondition>`;
      break;
    }
    case 'fill_blank':
      presentation = `${mattext(question.prompt)}<response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>`;
      processing = `${SHOW_FEEDBACK}<respcondition continue="No"><conditionvar><varequal respident="response1">${xmlEscape(oneLine(question.answer))}</varequal></conditionvar><setvar action="Set" varname="SCORE">100</setvar></respcondition>`;
      break;
    case 'short_answer':
    case 'discussion':
      presentation = `${mattext(question.prompt)}<response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>`;
      processing = `${SHOW_FEEDBACK}<respcondition continue="No"><conditionvar><other/></conditionvar></respcondition>`;
      feedback = `Model answer: ${oneLine(question.answer)} ${feedback}`;
      break;
    case 'matching': {
      const rights = question.pairs
        .map(
          (p, i) => `<response_label ident="${id}_r${i + 1}">${mattext(p.right)}</response_label>`,
        )
        .join('');
      presentation =
        mattext(question.prompt) +
        question.pairs
          .map(
            (p, i) =>
              `<response_lid ident="response_${i + 1}" rcardinality="Single">${mattext(p.left)}<render_choice>${rights}</render_choice></response_lid>`,
          )
          .join('');
      const share = (100 / question.pairs.length).toFixed(2);
      processing =
        SHOW_FEEDBACK +
        question.pairs
          .map(
            (_, i) =>
              `<respcondition continue="Yes"><conditionvar><varequal respident="response_${i + 1}">${id}_r${i + 1}</varequal></conditionvar><setvar action="Add" varname="SCORE">${share}</setvar></respcondition>`,
          )
          .join('');
      break;
    }
  }
  return `${head}<presentation>${presentation}</presentation><resprocessing>${OUTCOMES}${processing}</resprocessing>${generalFeedback(feedback)}</item>`;
}

/** One material's assessment XML (valid against the QTI ASI 1.2.1 DTD). */
export function qtiAssessment(document: MaterialDocument, name: string, id: string): string {
  const items = questionsOf(document)
    .map(({ question, number }) => item(question, number, `${id}_q${number}`))
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<questestinterop><assessment ident="${id}" title="${xmlEscape(oneLine(name))}">${metadata({
    cc_maxattempts: '1',
  })}<section ident="root_section">
${items}
</section></assessment></questestinterop>
`;
}

/** imsmanifest.xml listing each assessment (valid against IMS CP 1.1's imscp_v1p1.xsd). */
export function qtiManifest(resources: Array<{ id: string; href: string }>): string {
  const list = resources
    .map(
      (r) =>
        `<resource identifier="${r.id}_res" type="imsqti_xmlv1p2" href="${xmlEscape(r.href)}"><file href="${xmlEscape(r.href)}"/></resource>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="chapterwise_export" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 http://www.imsglobal.org/xsd/imscp_v1p1.xsd"><metadata><schema>IMS Content</schema><schemaversion>1.1.3</schemaversion></metadata><organizations/><resources>${list}</resources></manifest>
`;
}

function packageOf(inputs: ExportInput[]): ExportResult {
  const notes: string[] = [];
  const resources: Array<{ id: string; href: string }> = [];
  const files: Array<{ name: string; body: string }> = [];
  inputs.forEach((input, i) => {
    const id = `quiz${i + 1}`;
    const folder = `${id}-${fileBase(input.name, input.document.type)}`.slice(0, 90);
    const href = `${folder}/${id}.xml`;
    resources.push({ id, href });
    files.push({ name: href, body: qtiAssessment(input.document, input.name, id) });
    if (input.document.vocabulary.length && inputs.length === 1)
      notes.push('The vocabulary list is not part of a QTI quiz.');
  });
  files.unshift({ name: 'imsmanifest.xml', body: qtiManifest(resources) });
  return { body: toZip(files), notes };
}

export const qti: Exporter = {
  id: 'qti',
  extension: 'zip',
  contentType: 'application/zip',
  copies: false,
  build: (input) => packageOf([input]),
  buildMany: packageOf,
};
