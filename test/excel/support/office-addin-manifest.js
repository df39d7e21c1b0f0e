// Browser stand-in for office-addin-manifest, of which office-addin-mock needs only the host names
// (the real package reads files and spawns processes: Node only).
export const OfficeApp = {
  Excel: 'excel',
  OneNote: 'onenote',
  Outlook: 'outlook',
  PowerPoint: 'powerpoint',
  Project: 'project',
  Word: 'word',
};
