/** The red box the spec uses for generation and list-loading errors. Renders nothing without a message. */
export function ErrorBox({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="alert alert-error" role="alert">
      {message}
    </div>
  );
}
