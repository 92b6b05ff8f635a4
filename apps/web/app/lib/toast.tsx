import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';

export interface ToastInput {
  title?: string;
  message: string;
  tone?: 'success' | 'error' | 'info';
  /** How long it stays, in ms (the spec fixes 1 s, 4 s and 5 s for its toasts). */
  durationMs?: number;
  /** A link under the message, opened in a new tab (an outside page, like a new Google form). */
  link?: { href: string; label: string };
}

interface Toast extends Required<Omit<ToastInput, 'title' | 'link'>> {
  id: number;
  title?: string;
  link?: { href: string; label: string };
}

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

/** The one toast helper of the app: `const toast = useToast(); toast({ ... })`. */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);

  const show = useCallback(
    (input: ToastInput) => {
      const id = nextId.current++;
      const toast: Toast = {
        id,
        message: input.message,
        tone: input.tone ?? 'info',
        durationMs: input.durationMs ?? 4000,
        ...(input.title ? { title: input.title } : {}),
        ...(input.link ? { link: input.link } : {}),
      };
      setToasts((all) => [...all, toast]);
      window.setTimeout(() => dismiss(id), toast.durationMs);
    },
    [dismiss],
  );

  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast-region" aria-live="polite" aria-atomic="false">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast-${toast.tone}`}
            role={toast.tone === 'error' ? 'alert' : 'status'}
          >
            <div className="toast-body">
              {toast.title ? <strong className="toast-title">{toast.title}</strong> : null}
              <span>{toast.message}</span>
              {toast.link ? (
                <a
                  className="toast-link"
                  href={toast.link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {toast.link.label}
                </a>
              ) : null}
            </div>
            <button
              type="button"
              className="toast-close"
              aria-label="Dismiss notification"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): (toast: ToastInput) => void {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToast must be used inside ToastProvider');
  return value;
}
