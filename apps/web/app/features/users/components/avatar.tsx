/** A round avatar, or the first letter of the name when there is no picture. */
export function Avatar({
  src,
  name,
  size,
}: {
  src: string;
  name: string;
  size: 'md' | 'lg' | 'xl';
}) {
  const px = { md: 48, lg: 96, xl: 128 }[size];
  if (src) {
    return <img className={`avatar avatar-${size}`} src={src} alt="" width={px} height={px} />;
  }
  return (
    <span className={`avatar avatar-${size} avatar-initial`} aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
