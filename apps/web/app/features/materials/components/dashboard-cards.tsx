import { Link } from 'react-router';
import { isTouchLayout, openAssistant } from '../../../lib/chat';

/** The dashboard's two cards: the AI Teaching Assistant and the Material Generator (spec §2). */
export function DashboardCards({ chatUrl }: { chatUrl: string }) {
  return (
    <ul className="dashboard-cards">
      <li className="card dashboard-card">
        <span className="dashboard-icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28">
            <path
              d="M4 5h16v10H9l-5 4z"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
          </svg>
        </span>
        <h2>AI Teaching Assistant</h2>
        <p className="muted">
          Plan lessons, adapt a text to your class or brainstorm activities in a chat.
        </p>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => openAssistant(chatUrl, true, isTouchLayout())}
        >
          Open the AI Teaching Assistant
        </button>
      </li>
      <li className="card dashboard-card">
        <span className="dashboard-icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28">
            <path
              d="M6 3h9l3 3v15H6z M9 10h6 M9 14h6 M9 18h4"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
          </svg>
        </span>
        <h2>Material Generator</h2>
        <p className="muted">
          Turn a chapter or any text into a quiz, test, lesson or worksheet with an answer key.
        </p>
        <Link className="button button-primary" to="/material-generator">
          Open the Material Generator
        </Link>
      </li>
    </ul>
  );
}
