/** The vitest annotation type of a progress message (a long wait) sent from inside a check to the console. */
export const PROGRESS_ANNOTATION = 'svc-progress';
