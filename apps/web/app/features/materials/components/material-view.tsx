import {
  answerText,
  choiceLetter,
  EVIDENCE_NOT_FOUND_MESSAGE,
  evidenceMissing,
  evidenceOf,
  orderOf,
  type MaterialDocument,
  type Question,
} from '@chapterwise/shared';

function Quote({ text }: { text: string }) {
  return <q className="mv-quote">{text.replace(/^["“]+|["”]+$/g, '')}</q>;
}

/** The teacher's warning on a quote an edit left outside the reference text. */
export function EvidenceWarning({ id }: { id?: string }) {
  return (
    <p className="mv-warning" id={id}>
      <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
        <path
          d="M10 2.5 18.5 17h-17L10 2.5Zm0 5v4.5m0 2.2v.3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>
        <span className="visually-hidden">Warning: </span>
        {EVIDENCE_NOT_FOUND_MESSAGE}
      </span>
    </p>
  );
}

function QuestionBody({ question, student }: { question: Question; student: boolean }) {
  switch (question.kind) {
    case 'multiple_choice':
      return (
        <ol className="mv-choices" type="A">
          {question.choices.map((choice, i) => (
            <li key={i}>
              <span className="mv-letter">{choiceLetter(i)}.</span> {choice}
            </li>
          ))}
        </ol>
      );
    case 'true_false':
      return <p className="mv-tf">True / False</p>;
    case 'short_answer':
      return student ? (
        <div className="mv-lines" aria-hidden="true">
          <span />
          <span />
        </div>
      ) : null;
    case 'discussion':
      return student ? (
        <div className="mv-lines" aria-hidden="true">
          <span />
          <span />
          <span />
          <span />
        </div>
      ) : null;
    case 'matching': {
      const order = orderOf(question);
      return (
        <div className="mv-matching">
          <ol>
            {question.pairs.map((pair, i) => (
              <li key={i}>{pair.left}</li>
            ))}
          </ol>
          <ol type="A">
            {order.map((pairIndex, i) => (
              <li key={i}>
                <span className="mv-letter">{choiceLetter(i)}.</span>{' '}
                {question.pairs[pairIndex]?.right}
              </li>
            ))}
          </ol>
        </div>
      );
    }
    case 'fill_blank':
      return null;
  }
}

/** The key of one question with the quotes that prove it. */
function KeyItem({ question, number }: { question: Question; number: number }) {
  const falseWithCorrection =
    question.kind === 'true_false' && !question.answer && question.correction;
  return (
    <li value={number}>
      <strong>{answerText(question)}</strong>
      {falseWithCorrection ? (
        <p className="mv-evidence">
          The text says: <Quote text={question.correction!} />
        </p>
      ) : (
        evidenceOf(question).map((quote, i) => (
          <p key={i} className="mv-evidence">
            Evidence: <Quote text={quote} />
          </p>
        ))
      )}
      {evidenceMissing(question) ? <EvidenceWarning /> : null}
    </li>
  );
}

export interface MaterialViewProps {
  document: MaterialDocument;
  /** Student copy: name and date lines, answer lines, no lesson plan and no key. */
  copy?: 'teacher' | 'student';
  /** Show the answer key open (print view) rather than behind a disclosure. */
  keyOpen?: boolean;
  /** Heading level of the title (cards sit under a page heading). */
  titleLevel?: 2 | 3;
  showTitle?: boolean;
}

/**
 * A material as a teacher reads it: title, instructions, lesson plan, vocabulary, numbered
 * questions with lettered choices by part, then the answer key apart, with evidence quotes.
 */
export function MaterialView({
  document,
  copy = 'teacher',
  keyOpen = false,
  titleLevel = 3,
  showTitle = true,
}: MaterialViewProps) {
  const student = copy === 'student';
  const Title = titleLevel === 2 ? 'h2' : 'h3';
  const Sub = titleLevel === 2 ? 'h3' : 'h4';
  const lesson = document.lesson;
  let number = 0;
  const numbered: Array<[Question, number]> = [];
  const numberOf = (q: Question) => {
    number += 1;
    numbered.push([q, number]);
    return number;
  };

  return (
    <article className="material-view">
      {showTitle ? <Title className="mv-title">{document.title}</Title> : null}
      <p className="mv-meta">
        {[
          document.grade && `Grade: ${document.grade}`,
          document.subject && `Subject: ${document.subject}`,
          `Type: ${document.type}`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {!student && document.generator.notes.length ? (
        <aside className="mv-notes" aria-label="Notes from the generator">
          <ul>
            {document.generator.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </aside>
      ) : null}
      {student ? (
        <p className="mv-name">Name: ______________________ &nbsp; Date: ____________</p>
      ) : null}
      {document.instructions ? (
        <p className="mv-instructions">
          <strong>Instructions:</strong> {document.instructions}
        </p>
      ) : null}

      {lesson && !student ? (
        <section className="mv-lesson" aria-label="Lesson plan">
          <Sub>Lesson plan ({lesson.durationMinutes} minutes)</Sub>
          <p className="mv-label">Students will be able to:</p>
          <ul>
            {lesson.objectives.map((o) => (
              <li key={o}>{o}</li>
            ))}
          </ul>
          {lesson.materialsNeeded.length ? (
            <>
              <p className="mv-label">Materials</p>
              <ul>
                {lesson.materialsNeeded.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </>
          ) : null}
          {lesson.keyPassages.length ? (
            <>
              <p className="mv-label">Key passages</p>
              <ul className="mv-passages">
                {lesson.keyPassages.map((p) => (
                  <li key={p}>
                    <Quote text={p} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="mv-label">Activities</p>
          <ol className="mv-activities">
            {lesson.activities.map((a) => (
              <li key={a.title}>
                <strong>{a.title}</strong>{' '}
                <span className="muted">
                  ({a.minutes} min{a.grouping ? `, ${a.grouping}` : ''})
                </span>
                <ul>
                  {a.steps.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
          <p className="mv-label">Differentiation</p>
          <ul>
            {lesson.differentiation.support.map((s) => (
              <li key={s}>
                <em>Support:</em> {s}
              </li>
            ))}
            {lesson.differentiation.extension.map((s) => (
              <li key={s}>
                <em>Extension:</em> {s}
              </li>
            ))}
            {lesson.differentiation.languageLearners.map((s) => (
              <li key={s}>
                <em>Language learners:</em> {s}
              </li>
            ))}
          </ul>
          <p className="mv-label">Assessment</p>
          <ul>
            {lesson.assessment.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {document.vocabulary.length ? (
        <section aria-label="Vocabulary">
          <Sub>Vocabulary</Sub>
          <dl className="mv-vocabulary">
            {document.vocabulary.map((v) => (
              <div key={v.term}>
                <dt>
                  {v.term}{' '}
                  {v.partOfSpeech ? <span className="muted">({v.partOfSpeech})</span> : null}
                </dt>
                <dd>
                  {v.definition}
                  <br />
                  <Quote text={v.context} />
                  {!student && evidenceMissing(v) ? <EvidenceWarning /> : null}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      {document.sections.map((section, s) =>
        section.questions.length ? (
          <section key={s} className="mv-section">
            <Sub>
              Part {s + 1}: {section.title}
            </Sub>
            {section.instructions ? (
              <p className="mv-section-instructions">{section.instructions}</p>
            ) : null}
            <ol className="mv-questions">
              {section.questions.map((q) => {
                const n = numberOf(q);
                return (
                  <li key={q.id} value={n}>
                    <p className="mv-prompt">
                      {q.kind === 'true_false' ? `True or false: ${q.prompt}` : q.prompt}
                    </p>
                    <QuestionBody question={q} student={student} />
                    {!student && evidenceMissing(q) ? <EvidenceWarning /> : null}
                  </li>
                );
              })}
            </ol>
          </section>
        ) : null,
      )}

      {lesson?.exitTicket.length ? (
        <section className="mv-section">
          <Sub>Exit ticket</Sub>
          <ol className="mv-questions">
            {lesson.exitTicket.map((q) => {
              const n = numberOf(q);
              return (
                <li key={q.id} value={n}>
                  <p className="mv-prompt">
                    {q.kind === 'true_false' ? `True or false: ${q.prompt}` : q.prompt}
                  </p>
                  <QuestionBody question={q} student={student} />
                  {!student && evidenceMissing(q) ? <EvidenceWarning /> : null}
                </li>
              );
            })}
          </ol>
        </section>
      ) : null}

      {!student && numbered.length ? (
        keyOpen ? (
          <section className="mv-key mv-key-page" aria-label="Answer key">
            <Sub>Answer key</Sub>
            <ol className="mv-key-list">
              {numbered.map(([q, n]) => (
                <KeyItem key={q.id} question={q} number={n} />
              ))}
            </ol>
          </section>
        ) : (
          <details className="mv-key">
            <summary>Answer key</summary>
            <ol className="mv-key-list">
              {numbered.map(([q, n]) => (
                <KeyItem key={q.id} question={q} number={n} />
              ))}
            </ol>
          </details>
        )
      ) : null}
      {document.generator.unverified && !student ? (
        <p className="muted">
          No reference text was given, so these answers could not be checked against a text.
        </p>
      ) : null}
    </article>
  );
}
