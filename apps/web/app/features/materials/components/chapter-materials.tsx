import { numberedQuestions, type Material } from '@chapterwise/shared';
import { useId } from 'react';
import { ExportMenu } from './export-menu';
import { MaterialView } from './material-view';

/** "12 questions", "A lesson plan and 5 questions": what a ready-made material holds. */
function describe(material: Material): string {
  const document = material.output?.document;
  if (!document) return '';
  const questions = numberedQuestions(document).length;
  const counted = `${questions} question${questions === 1 ? '' : 's'}`;
  return document.lesson ? `A lesson plan and ${counted}` : counted;
}

/**
 * The chapter page's ready-made materials (made by `npm run materials:pregenerate`): one card
 * per material with what it holds, a preview of the student copy, and the Export menu.
 * `offer` (billing's, composed by the route) says how to get them into Your Materials.
 */
export function ChapterMaterials({
  materials,
  offer,
}: {
  materials: Material[];
  offer?: React.ReactNode;
}) {
  const headingId = useId();
  if (materials.length === 0) return null;
  return (
    <section className="chapter-materials" aria-labelledby={headingId}>
      <h2 id={headingId}>Ready-made materials for this chapter</h2>
      <p className="muted">
        Checked against the chapter: every answer comes with the sentence it is taken from.
      </p>
      {offer}
      <ul className="chapter-material-cards">
        {materials.map((m) => (
          <ChapterMaterialCard key={m._id} material={m} />
        ))}
      </ul>
    </section>
  );
}

function ChapterMaterialCard({ material }: { material: Material }) {
  const titleId = useId();
  const document = material.output?.document;
  if (!document) return null;
  return (
    <li className="card chapter-material-card" aria-labelledby={titleId}>
      <div className="chapter-material-head">
        <span className="badge">{material.type}</span>
        <ExportMenu materialId={material._id} name={material.name} />
      </div>
      <h3 id={titleId} className="chapter-material-title">
        {material.name}
      </h3>
      <p className="muted chapter-material-meta">
        {material.grade} · {describe(material)}
      </p>
      <details className="chapter-material-preview">
        <summary>Preview the student copy</summary>
        <div
          className="material-output"
          tabIndex={0}
          role="region"
          aria-label={`Preview of ${material.name}`}
        >
          <MaterialView document={document} copy="student" showTitle={false} titleLevel={3} />
        </div>
      </details>
    </li>
  );
}
