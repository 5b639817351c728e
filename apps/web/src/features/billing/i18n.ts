import { registerTranslations } from '../../i18n/register';
import { billingMessages } from './messages';
import { extrasMessages } from './messages-extras';

registerTranslations('billing', billingMessages);
registerTranslations('finx', extrasMessages);
