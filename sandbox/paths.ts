import { CONTROL_PATHS, OPERATION_NAMES, OPERATIONS, type OperationName } from '../core/operations.js';

/** Where the sandbox serves each operation (the interface's and P-OPS's defaults), and its own control paths. */
export const OPERATION_PATHS = {
  ...(Object.fromEntries(OPERATION_NAMES.map((name) => [name, OPERATIONS[name].path])) as {
    [K in OperationName]: (typeof OPERATIONS)[K]['path'];
  }),
  ...CONTROL_PATHS,
};
