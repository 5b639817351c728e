import { ErrorCode, type MessageKey } from '@tandem/contract';

type Params = Record<string, string | number> | readonly (string | number)[];
export interface FieldError {
  /** A MessageKey of the catalogue, or plain text. */
  key: string;
  params?: Params;
}

/**
 * A failure the client should see: a code of the envelope, a message key (localised when sent) and
 * optional field errors. Anything else thrown is an internal error and is logged, not shown.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params: Params = [],
    readonly status = 400,
    readonly fields: Record<string, FieldError> | null = null,
  ) {
    super(key);
  }
}

export const notFound = () => new AppError(ErrorCode.notFound, 'recordNotFound', [], 404);
export const forbidden = () => new AppError(ErrorCode.forbidden, 'noPermission', [], 403);
/** '{0} [{1}] already exists', naming the field that clashes. */
export const duplicate = (field: string, label: string, value: string) =>
  new AppError(ErrorCode.conflict, 'alreadyExists', [label, value], 409, {
    [field]: { key: 'alreadyExists', params: [label, value] },
  });
export const ruleBroken = (key: MessageKey, params: Params = []) =>
  new AppError(ErrorCode.rule, key, params, 409);
export const invalidField = (field: string, key: MessageKey, params: Params = []) =>
  new AppError(ErrorCode.validation, 'validationFailed', [], 400, { [field]: { key, params } });
