import { PASSWORD_MAX, PASSWORD_MIN } from '@tandem/contract';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/** Password 8 to 15 characters, the same limits the contract enforces on the server. */
export const passwordRules = (t: TFunction): Rule[] => [
  { required: true, message: t('common.required', { field: t('auth.password') }) },
  { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('auth.passwordLength') },
];
