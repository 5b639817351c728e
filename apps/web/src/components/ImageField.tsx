import { Alert, Button, Space } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkFile } from './upload-logic';

const TYPES = ['png', 'jpg', 'jpeg'];
const MIMES = ['image/png', 'image/jpeg'];

/**
 * An image kept in a form as a data URL (a logo): chosen with the file dialog, checked for type
 * (PNG or JPEG) and size (spec 02: under 5 MB) with the upload widget's rules and texts, previewed
 * at most 150x200, removable. The value goes to the server with the form, which checks it again.
 */
export function ImageField({
  value,
  onChange,
  maxMb = 5,
  testId = 'image',
  disabled,
}: {
  value?: string;
  onChange?: (v: string) => void;
  maxMb?: number;
  testId?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const pick = (file: File | undefined) => {
    if (!file) return;
    const r = checkFile(file, { types: TYPES, maxMb, maxFiles: 1 }, 0);
    if (r?.reason === 'tooBig') return setError(t('upload.tooBig', { size: r.size, max: r.max }));
    if (r || !MIMES.includes(file.type)) return setError(t('upload.wrongType'));
    setError(null);
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') onChange?.(reader.result);
    };
    reader.readAsDataURL(file);
  };
  return (
    <Space direction="vertical">
      {value && (
        <img
          src={value}
          alt=""
          style={{ maxWidth: 150, maxHeight: 200, border: '1px solid #eee' }}
          data-testid={`${testId}-preview`}
        />
      )}
      <Space>
        <Button onClick={() => input.current?.click()} disabled={disabled} data-testid={`${testId}-choose`}>
          {t('upload.chooseImage')}
        </Button>
        {value && (
          <Button onClick={() => onChange?.('')} disabled={disabled} data-testid={`${testId}-remove`}>
            {t('upload.removeImage')}
          </Button>
        )}
      </Space>
      <input
        ref={input}
        type="file"
        accept=".png,.jpg,.jpeg,image/png,image/jpeg"
        hidden
        data-testid={testId}
        onChange={(e) => {
          pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {error && <Alert type="error" showIcon message={error} data-testid={`${testId}-error`} />}
    </Space>
  );
}
