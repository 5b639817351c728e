import { CloseOutlined } from '@ant-design/icons';
import { Form, Input, Tag, theme, type InputRef } from 'antd';
import {
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { addTags, removeTag, TAG_SEPARATOR_KEYS, type TagError, type TagMode } from './tag-logic';

export interface TagInputProps {
  /** 'email': checks the format, duplicates ignore case; 'number': digits only. */
  mode: TagMode;
  value?: string[];
  onChange?: (value: string[]) => void;
  /** The kind named in the duplicate message (default: 'e-mail' or 'number'). */
  kind?: string;
  /** Replaces 'The value should be email!' (e.g. t('tags.emailHasInvalidEmailFormat', { value })). */
  invalidMessage?: string | ((value: string) => string);
  /** Called with the rejected values each time some are rejected. */
  onInvalid?: (errors: TagError[]) => void;
  placeholder?: string;
  /** Id of the text field, so a <label htmlFor> (or Form.Item) points at it. */
  id?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  disabled?: boolean;
  status?: 'error' | 'warning';
  /** Prefix of the data-testid attributes (default 'tag-input'). */
  testId?: string;
}

/**
 * Tag input in email or number mode (spec 01 sections 2 and 5). Enter, comma, semicolon or space
 * adds the typed value; pasted text with several values adds each; Backspace in an empty field
 * removes the last tag; leaving the field adds what was typed. Rejected values stay in the field
 * (duplicates are dropped) and the reasons show below it.
 */
export function TagInput({
  mode,
  value,
  onChange,
  kind,
  invalidMessage,
  onInvalid,
  placeholder,
  id,
  disabled,
  status,
  testId = 'tag-input',
  ...aria
}: TagInputProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // Inside a Form.Item the field's validation status colours the border too.
  const { status: itemStatus } = Form.Item.useStatus();
  const [inner, setInner] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [focused, setFocused] = useState(false);
  const inputRef = useRef<InputRef>(null);
  const autoId = useId();
  const inputId = id ?? `${autoId}-input`;
  const errorId = `${autoId}-errors`;
  const current = value ?? inner;

  const set = (next: string[]) => {
    setInner(next);
    onChange?.(next);
  };

  const messageOf = (e: TagError): string => {
    if (e.reason === 'duplicate')
      return t('tags.duplicate', { kind: kind ?? t(mode === 'email' ? 'tags.email' : 'tags.number') });
    if (e.reason === 'digitsOnly') return t('tags.digitsOnly');
    if (typeof invalidMessage === 'function') return invalidMessage(e.value);
    return invalidMessage ?? t('tags.valueShouldBeEmail');
  };

  /** Adds every value of the text; invalid ones stay in the field to be corrected. */
  const commit = (raw: string) => {
    const result = addTags(current, raw, mode);
    if (result.value.length !== current.length) set(result.value);
    setErrors([...new Set(result.errors.map(messageOf))]);
    setText(
      result.errors
        .filter((e) => e.reason !== 'duplicate')
        .map((e) => e.value)
        .join(', '),
    );
    if (result.errors.length) onInvalid?.(result.errors);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'Enter' || (TAG_SEPARATOR_KEYS as readonly string[]).includes(e.key)) {
      // With nothing typed, Enter keeps its meaning (submits the form).
      if (text.trim()) {
        e.preventDefault();
        commit(text);
      }
      return;
    }
    if (e.key === 'Backspace' && text === '' && current.length > 0) {
      e.preventDefault();
      set(current.slice(0, -1));
      setErrors([]);
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const pasted = e.clipboardData.getData('text');
    if (!/[,;\s]/.test(pasted.trim())) return;
    e.preventDefault();
    const el = e.currentTarget;
    const start = el.selectionStart ?? text.length;
    const end = el.selectionEnd ?? text.length;
    commit(text.slice(0, start) + ' ' + pasted + ' ' + text.slice(end));
  };

  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (e.currentTarget.contains(e.relatedTarget)) return;
    setFocused(false);
    if (text.trim()) commit(text);
  };

  const remove = (index: number) => {
    set(removeTag(current, index));
    setErrors([]);
    inputRef.current?.focus();
  };

  const invalid = status === 'error' || itemStatus === 'error' || errors.length > 0;
  const borderColor = invalid ? token.colorError : focused ? token.colorPrimary : token.colorBorder;
  let tags: ReactNode = null;
  if (current.length > 0) {
    tags = (
      <ul
        aria-label={aria['aria-label']}
        data-testid={`${testId}-tags`}
        style={{ display: 'contents', listStyle: 'none' }}
      >
        {current.map((v, i) => (
          <li key={`${v}-${i}`} style={{ display: 'inline-flex' }}>
            <Tag
              data-testid={`${testId}-tag`}
              style={{ marginInlineEnd: 0, display: 'inline-flex', alignItems: 'center', gap: 2 }}
            >
              <span>{v}</span>
              {!disabled && (
                <button
                  type="button"
                  aria-label={`${t('common.delete')} ${v}`}
                  data-testid={`${testId}-remove`}
                  onClick={() => remove(i)}
                  style={{
                    border: 0,
                    background: 'transparent',
                    padding: '0 2px',
                    cursor: 'pointer',
                    lineHeight: 1,
                    color: 'inherit',
                  }}
                >
                  <CloseOutlined aria-hidden style={{ fontSize: 10 }} />
                </button>
              )}
            </Tag>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div data-testid={testId}>
      <div
        onFocus={() => setFocused(true)}
        onBlur={onBlur}
        onClick={(e) => {
          if (e.target === e.currentTarget) inputRef.current?.focus();
        }}
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 4,
          minHeight: token.controlHeight,
          padding: '1px 4px',
          border: `1px solid ${borderColor}`,
          borderRadius: token.borderRadius,
          background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
          cursor: disabled ? 'not-allowed' : 'text',
        }}
      >
        {tags}
        <Input
          ref={inputRef}
          id={inputId}
          data-testid={`${testId}-field`}
          variant="borderless"
          value={text}
          disabled={disabled}
          placeholder={current.length ? undefined : (placeholder ?? t('tags.placeholder'))}
          aria-label={aria['aria-labelledby'] ? undefined : aria['aria-label']}
          aria-labelledby={aria['aria-labelledby']}
          aria-invalid={invalid || undefined}
          aria-describedby={errors.length ? errorId : undefined}
          inputMode={mode === 'number' ? 'numeric' : 'email'}
          autoComplete="off"
          onChange={(e) => {
            setText(e.target.value);
            if (errors.length) setErrors([]);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          style={{ flex: '1 1 120px', minWidth: 120, padding: '2px 4px' }}
        />
      </div>
      <div
        id={errorId}
        role="alert"
        data-testid={`${testId}-error`}
        style={{ color: token.colorError, fontSize: token.fontSizeSM }}
      >
        {errors.map((m) => (
          <div key={m}>{m}</div>
        ))}
      </div>
    </div>
  );
}
