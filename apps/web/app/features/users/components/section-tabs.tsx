import { useEffect, useId, useRef } from 'react';

export interface Section {
  id: string;
  label: string;
  content: React.ReactNode;
}

/**
 * Tabs over a list of sections (WAI-ARIA tabs: arrow keys, Home and End move between tabs;
 * only the chosen panel is in the page). The chosen id is owned by the caller, which keeps
 * it in the address so a tab can be linked to.
 */
export function SectionTabs({
  sections,
  current,
  onSelect,
  label,
}: {
  sections: Section[];
  current: string;
  onSelect: (id: string) => void;
  label: string;
}) {
  const base = useId();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const list = useRef<HTMLDivElement>(null);
  const active = sections.find((s) => s.id === current) ?? sections[0];
  const activeIndex = active ? sections.indexOf(active) : -1;

  // On a phone the row of tabs scrolls sideways: keep the chosen one in view (never the page).
  useEffect(() => {
    const row = list.current;
    const tab = tabs.current[activeIndex];
    if (!row || !tab || row.scrollWidth <= row.clientWidth) return;
    row.scrollLeft = tab.offsetLeft - row.offsetLeft - (row.clientWidth - tab.offsetWidth) / 2;
  }, [activeIndex]);

  if (!active) return null;

  function handleKeyDown(event: React.KeyboardEvent, index: number) {
    const last = sections.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(sections[next]!.id);
    tabs.current[next]?.focus();
  }

  return (
    <div className="section-tabs">
      <div className="tabs" role="tablist" aria-label={label} ref={list}>
        {sections.map((section, index) => {
          const selected = section.id === active.id;
          return (
            <button
              key={section.id}
              ref={(el) => {
                tabs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${section.id}`}
              aria-selected={selected}
              aria-controls={`${base}-panel-${section.id}`}
              tabIndex={selected ? 0 : -1}
              className="tab"
              onClick={() => onSelect(section.id)}
              onKeyDown={(event) => handleKeyDown(event, index)}
            >
              {section.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel-${active.id}`}
        aria-labelledby={`${base}-tab-${active.id}`}
        tabIndex={0}
        className="tab-panel"
      >
        {active.content}
      </div>
    </div>
  );
}
