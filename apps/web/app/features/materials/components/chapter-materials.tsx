import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { getPublicMaterial, materialKeys, type ChapterMaterialCardData } from '../api';
import { ExportMenu } from './export-menu';
import { MaterialView } from './material-view';

/** "12 questions", "A lesson plan and 5 questions": what a ready-made material holds. */
function describe(material: ChapterMaterialCardData): string {
  const questions = material.questionCount;
  const counted = `${questions} question${questions === 1 ? '' : 's'}`;
  return material.hasLesson ? `A lesson plan and ${counted}` : counted;
}

/**
 * The chapter page's ready-made materials (made by `npm run materials:pregenerate`): one card
 * per material with what it holds, a preview of the student copy, and the Export menu.
 * `offer` (billing's, composed by the route) says how to get them into Your Materials.
 * The page lists cards only; a material's document is loaded when its preview is opened.
 */
export function ChapterMaterials({
  materials,
  offer,
}: {
  materials: ChapterMaterialCardData[];
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
          <ChapterMaterialCardItem key={m._id} material={m} />
        ))}
      </ul>
    </section>
  );
}

function ChapterMaterialCardItem({ material }: { material: ChapterMaterialCardData }) {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  return (
    <li className="card chapter-material-card" aria-labelledby={titleId}>
      <div className="chapter-material-head">
        <span className="badge">{material.type}</span>
        <ExportMenu materialId={material._id} name={material.name} />
      </div>
      <h3 id={titleId} className="chapter-material-title">
        {material.name}
      </h3>
      <p className="muted chapter-material-meta">{`${material.grade} · ${describe(material)}`}</p>
      <details
        className="chapter-material-preview"
        onToggle={(event) => setOpen(event.currentTarget.open)}
      >
        <summary>Preview the student copy</summary>
        {open ? <MaterialPreview material={material} /> : null}
      </details>
    </li>
  );
}

function MaterialPreview({ material }: { material: ChapterMaterialCardData }) {
  const query = useQuery({
    queryKey: materialKeys.one(material._id),
    queryFn: () => getPublicMaterial(material._id),
    staleTime: 5 * 60_000,
  });
  const document = query.data?.output?.document;
  return (
    <div
      className="material-output"
      tabIndex={0}
      role="region"
      aria-label={`Preview of ${material.name}`}
      aria-busy={query.isPending}
    >
      {document ? (
        <MaterialView document={document} copy="student" showTitle={false} titleLevel={3} />
      ) : query.isError ? (
        <p role="alert">The preview could not be loaded. Close it and open it again to retry.</p>
      ) : (
        <p className="muted">Loading the preview…</p>
      )}
    </div>
  );
}
