import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { numberedQuestions } from '@chapterwise/shared';
import { hostileDocument } from '../../../test/material-fixtures.js';
import { oneLine } from './common.js';
import { exportMany, EXPORTERS } from './index.js';

const SCHEMAS = fileURLToPath(new URL('../../../test/fixtures/qti/', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'cw-qti-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** xmllint (Debian's libxml2-utils; .ci/run installs it) on a file, offline. */
function xmllint(args: string[], xml: string, name: string): { ok: boolean; output: string } {
  const file = path.join(work, name.replace(/\//g, '__'));
  writeFileSync(file, xml);
  const run = spawnSync('xmllint', ['--noout', '--nonet', ...args, file], {
    cwd: SCHEMAS,
    encoding: 'utf8',
  });
  if (run.error)
    throw new Error('xmllint is needed for these tests: apt-get install libxml2-utils');
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

const LIST = new Set([
  'item',
  'response_label',
  'response_lid',
  'respcondition',
  'qtimetadatafield',
  'resource',
  'material',
  'assessment',
]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'text',
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => LIST.has(name),
});

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const text = (material: Node[]): string =>
  String(material[0]!.mattext.text ?? material[0]!.mattext);

function field(item: Node, label: string): string | undefined {
  return item.itemmetadata.qtimetadata.qtimetadatafield.find((f: Node) => f.fieldlabel === label)
    ?.fieldentry;
}

function unpack(body: Buffer | string): Record<string, string> {
  const files = unzipSync(new Uint8Array(body as Buffer));
  return Object.fromEntries(Object.entries(files).map(([n, b]) => [n, strFromU8(b)]));
}

describe('QTI 1.2 (Canvas, Blackboard, Brightspace)', () => {
  const document = hostileDocument();
  const questions = numberedQuestions(document);

  it('is a zip whose items are valid QTI 1.2.1 (DTD) and whose manifest is valid IMS CP 1.1', async () => {
    const result = await EXPORTERS.qti!.build({
      document,
      name: 'Letter 1 </xml>',
      copy: 'teacher',
    });
    const files = unpack(result.body);
    expect(Object.keys(files)[0]).toBe('imsmanifest.xml');
    const manifest = xmllint(
      ['--schema', 'imscp_v1p1.xsd'],
      files['imsmanifest.xml']!,
      'imsmanifest.xml',
    );
    expect(manifest.output).toContain('validates');
    expect(manifest.ok, manifest.output).toBe(true);
    const resources = parser.parse(files['imsmanifest.xml']!).manifest.resources.resource as Node[];
    expect(resources).toHaveLength(1);
    expect(resources[0]!.type).toBe('imsqti_xmlv1p2');
    const quiz = files[resources[0]!.href];
    expect(quiz).toBeDefined();
    const valid = xmllint(['--dtdvalid', 'ims_qtiasiv1p2p1.dtd'], quiz!, 'quiz.xml');
    expect(valid.ok, valid.output).toBe(true);
    expect(quiz).not.toContain('</xml>');
  });

  it('reads back as the same questions, answers and evidence (fast-xml-parser)', async () => {
    const result = await EXPORTERS.qti!.build({ document, name: 'Letter 1', copy: 'teacher' });
    const files = unpack(result.body);
    const xml = Object.entries(files).find(([n]) => n.endsWith('/quiz1.xml'))![1];
    const assessment = parser.parse(xml).questestinterop.assessment[0] as Node;
    expect(assessment.title).toBe('Letter 1');
    const items = assessment.section.item as Node[];
    expect(items).toHaveLength(questions.length);
    questions.forEach((q, i) => {
      const item = items[i]!;
      expect(field(item, 'points_possible')).toBe('1.0');
      const presentation = item.presentation as Node;
      expect(text(presentation.material)).toBe(oneLine(q.prompt));
      const feedback = text(item.itemfeedback.flow_mat.material);
      const conditions = item.resprocessing.respcondition as Node[];
      switch (q.kind) {
        case 'multiple_choice':
        case 'true_false': {
          expect(field(item, 'question_type')).toBe(
            q.kind === 'true_false' ? 'true_false_question' : 'multiple_choice_question',
          );
          const labels = presentation.response_lid[0].render_choice.response_label as Node[];
          const choices = q.kind === 'true_false' ? ['True', 'False'] : q.choices;
          expect(labels.map((l) => text(l.material))).toEqual(choices.map(oneLine));
          const right = conditions.find((c) => c.setvar)!.conditionvar.varequal.text;
          const correct = q.kind === 'true_false' ? (q.answer ? 0 : 1) : q.answerIndex;
          expect(right).toBe(labels[correct]!.ident);
          break;
        }
        case 'fill_blank':
          expect(field(item, 'question_type')).toBe('short_answer_question');
          expect(conditions.find((c) => c.setvar)!.conditionvar.varequal.text).toBe(q.answer);
          break;
        case 'short_answer':
        case 'discussion':
          expect(field(item, 'question_type')).toBe('essay_question');
          expect(feedback).toContain(oneLine(q.answer));
          break;
        case 'matching': {
          expect(field(item, 'question_type')).toBe('matching_question');
          const lids = presentation.response_lid as Node[];
          expect(lids.map((l) => text(l.material))).toEqual(q.pairs.map((p) => oneLine(p.left)));
          lids.forEach((lid, k) => {
            const labels = lid.render_choice.response_label as Node[];
            const chosen = conditions.find((c) => c.conditionvar.varequal?.respident === lid.ident)!
              .conditionvar.varequal.text;
            expect(text(labels.find((l) => l.ident === chosen)!.material)).toBe(
              oneLine(q.pairs[k]!.right),
            );
          });
          break;
        }
      }
      if (q.kind !== 'matching' && !(q.kind === 'true_false' && q.correction))
        expect(feedback).toContain(oneLine(q.evidence));
    });
    // The teacher's "quote not found" mark never reaches students' feedback.
    expect(xml).not.toContain('not found');
  });

  it('puts a folder in one package: one assessment per material, all valid', async () => {
    const base = { type: 'Test' };
    const file = await exportMany(
      'qti',
      'Unit 1',
      [
        { ...base, name: 'Letter 1', input: { document, name: 'Letter 1', copy: 'teacher' } },
        {
          ...base,
          name: 'Letter 2',
          input: {
            document: hostileDocument({ title: 'Letter 2' }),
            name: 'Letter 2',
            copy: 'teacher',
          },
        },
      ],
      'teacher',
    );
    expect(file.fileName).toBe('unit-1-folder-qti.zip');
    const files = unpack(file.body);
    const resources = parser.parse(files['imsmanifest.xml']!).manifest.resources.resource as Node[];
    expect(resources.map((r) => r.href)).toEqual([
      'quiz1-letter-1-test/quiz1.xml',
      'quiz2-letter-2-test/quiz2.xml',
    ]);
    expect(xmllint(['--schema', 'imscp_v1p1.xsd'], files['imsmanifest.xml']!, 'm2.xml').ok).toBe(
      true,
    );
    for (const r of resources) {
      const check = xmllint(['--dtdvalid', 'ims_qtiasiv1p2p1.dtd'], files[r.href]!, r.href);
      expect(check.ok, check.output).toBe(true);
      expect(parser.parse(files[r.href]!).questestinterop.assessment[0].title).toBe(
        r.href.startsWith('quiz1') ? 'Letter 1' : 'Letter 2',
      );
    }
  });
});
