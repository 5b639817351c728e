/** The CSV rules live in the contract (the server's exports use them too). */
export { csvCell, toCsv } from '@tandem/contract';

export function downloadText(fileName: string, text: string, mime = 'text/csv;charset=utf-8'): void {
  const blob = new Blob(['\uFEFF' + text], { type: mime });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
