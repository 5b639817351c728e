import { CheckCircleFilled, CloseCircleFilled, DeleteOutlined, InboxOutlined } from '@ant-design/icons';
import { UPLOAD_MAX_FILES, UPLOAD_MAX_MB } from '@tandem/contract';
import { Alert, Button, Modal, Select, Spin, theme } from 'antd';
import {
  useEffect,
  useEffectEvent,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, upload } from '../api/client';
import {
  chooseHeader,
  csvPreview,
  initialHeaderMap,
  mappedPreview,
  rebuildCsv,
  type CsvPreview,
  type HeaderMap,
} from './csv';
import {
  acceptAttribute,
  admitFiles,
  CSV_PREVIEW_BYTES,
  formatSize,
  formFields,
  HEADER_MODAL_WIDTH,
  isCsvName,
  isImage,
  nextQueued,
  normalizeTypes,
  updateEntry,
  UPLOAD_THUMBNAIL,
  type QueueEntry,
  type Rejection,
} from './upload-logic';

export interface UploadResponse {
  object_id: number;
}
export interface UploadResult {
  file: File;
  ok: boolean;
  response?: UploadResponse;
  error?: string;
}
/** What a parent can do through `ref`. */
export interface UploadWidgetHandle {
  /** Uploads every queued file, one after another; resolves with each file's outcome. */
  process(): Promise<UploadResult[]>;
  /** Removes every file that is not uploading. */
  removeAll(): void;
  /** The files in the list that are waiting for upload. */
  queued(): File[];
}

export interface UploadWidgetProps {
  /** Upload path under /api (multipart POST through the API client's upload()). */
  url: string;
  /** Accepted extensions ('csv', '.xls'; case-insensitive); any type when empty. */
  accept?: readonly string[];
  /** Maximum size of one file in MB (default 1000). */
  maxFileSizeMb?: number;
  /** Maximum number of files (default 5); with 1, a new file replaces the current one. */
  maxFiles?: number;
  /** Upload as soon as a file is added (default false: only when processing starts). */
  autoProcess?: boolean;
  /** Each new value (other than 0 / undefined) starts processing, like calling process(). */
  processSignal?: number;
  /** Extra form fields sent with each file. */
  fields?: Record<string, string | number | boolean | null | undefined>;
  /** Form field of the file (default 'file'). */
  fileField?: string;
  /** Replaces "You can't upload files of this type.". */
  wrongTypeMessage?: string;
  /** For CSV files: the headers the server expects; a dialog maps the file's columns to them. */
  expectedHeaders?: readonly string[];
  /** Text of the drop area and its accessible name (default 'Drop files here or click to choose'). */
  label?: string;
  /** Shows an 'Upload' button that starts processing. */
  showStartButton?: boolean;
  /** 150x200 previews of image files (default true). */
  thumbnails?: boolean;
  disabled?: boolean;
  /** Id of the file input (for a <label htmlFor> or Form.Item). */
  id?: string;
  /** Prefix of the data-testid attributes (default 'upload'). */
  testId?: string;
  ref?: Ref<UploadWidgetHandle>;
  /** A file joined the list (for CSV files with expected headers: after the mapping was saved, with the rebuilt file). */
  onAdded?: (file: File) => void;
  onRemoved?: (file: File) => void;
  /** Just before a file is sent; fields may still be appended to the form. */
  onSending?: (file: File, form: FormData) => void;
  onSuccess?: (file: File, response: UploadResponse) => void;
  /** A file was refused (too big, wrong type, too many) or its upload failed. */
  onError?: (file: File, message: string, error?: unknown) => void;
}

type Entry = QueueEntry<File>;
interface Mapping {
  id: number;
  name: string;
  preview: CsvPreview;
  map: HeaderMap;
  saving: boolean;
}

/**
 * File upload widget (spec 01 sections 2, 4, 5, 8 and 9): a keyboard-operable drop area, checks of
 * size, type and count, a list with 150x200 image previews and per-file status, the CSV header
 * mapping dialog, and uploads that start when processing starts (or at once with autoProcess).
 */
export function UploadWidget(props: UploadWidgetProps) {
  const {
    accept,
    maxFiles = UPLOAD_MAX_FILES,
    showStartButton,
    thumbnails = true,
    disabled,
    id,
    testId = 'upload',
    label,
    processSignal,
    ref,
  } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const hintId = useId();

  const [entries, setEntries] = useState<Entry[]>([]);
  const [thumbs, setThumbs] = useState<ReadonlyMap<number, string>>(new Map());
  const [alerts, setAlerts] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [dragging, setDragging] = useState(false);

  const entriesRef = useRef<Entry[]>([]);
  const thumbsRef = useRef(new Map<number, string>());
  const mappingOpen = useRef(false);
  const processing = useRef<Promise<UploadResult[]> | null>(null);
  const processAfterMapping = useRef(false);
  const idSeq = useRef(0);
  const inputRef = useRef<HTMLInputElement>(null);
  // Uploads run across renders: they read the latest props and texts from here.
  const latest = useRef({ props, t });
  useLayoutEffect(() => {
    latest.current = { props, t };
  });

  const commit = (next: Entry[]) => {
    entriesRef.current = next;
    setEntries(next);
  };
  const setThumb = (entryId: number, url: string | null) => {
    const old = thumbsRef.current.get(entryId);
    if (old) URL.revokeObjectURL(old);
    if (url) thumbsRef.current.set(entryId, url);
    else thumbsRef.current.delete(entryId);
    setThumbs(new Map(thumbsRef.current));
  };
  useEffect(
    () => () => {
      for (const url of thumbsRef.current.values()) URL.revokeObjectURL(url);
      thumbsRef.current.clear();
    },
    [],
  );

  const rejectionText = (r: Rejection): string => {
    const { props: p, t: tr } = latest.current;
    if (r.reason === 'tooBig') return tr('upload.tooBig', { size: r.size, max: r.max });
    if (r.reason === 'tooMany') return tr('upload.tooMany', { max: r.max });
    return p.wrongTypeMessage ?? tr('upload.wrongType');
  };

  const uploadOne = async (entry: Entry): Promise<UploadResult> => {
    const { props: p, t: tr } = latest.current;
    commit(updateEntry(entriesRef.current, entry.id, { status: 'uploading', message: undefined }));
    const form = new FormData();
    for (const [k, v] of formFields(p.fields)) form.append(k, v);
    form.append(p.fileField ?? 'file', entry.file, entry.file.name);
    p.onSending?.(entry.file, form);
    try {
      const response = await upload(p.url, form);
      commit(updateEntry(entriesRef.current, entry.id, { status: 'success' }));
      latest.current.props.onSuccess?.(entry.file, response);
      return { file: entry.file, ok: true, response };
    } catch (err) {
      const message =
        err instanceof ApiError && err.message
          ? err.message
          : tr('common.errorOnLoading', { url: `/api${p.url}` });
      commit(updateEntry(entriesRef.current, entry.id, { status: 'error', message }));
      latest.current.props.onError?.(entry.file, message, err);
      return { file: entry.file, ok: false, error: message };
    }
  };

  const process = (): Promise<UploadResult[]> => {
    if (entriesRef.current.some((e) => e.status === 'mapping')) processAfterMapping.current = true;
    if (processing.current) return processing.current;
    const run = (async () => {
      const results: UploadResult[] = [];
      for (let next = nextQueued(entriesRef.current); next; next = nextQueued(entriesRef.current)) {
        results.push(await uploadOne(next));
      }
      return results;
    })().finally(() => {
      processing.current = null;
    });
    processing.current = run;
    return run;
  };

  /** Opens the header dialog for the next CSV file waiting for it. */
  const openNextMapping = async () => {
    if (mappingOpen.current) return;
    const entry = entriesRef.current.find((e) => e.status === 'mapping');
    if (!entry) {
      if (processAfterMapping.current || latest.current.props.autoProcess) {
        processAfterMapping.current = false;
        if (nextQueued(entriesRef.current)) void process();
      }
      return;
    }
    mappingOpen.current = true;
    const expected = latest.current.props.expectedHeaders ?? [];
    let preview: CsvPreview | null = null;
    try {
      const head = await entry.file.slice(0, CSV_PREVIEW_BYTES).text();
      preview = csvPreview(head, entry.file.size <= CSV_PREVIEW_BYTES);
    } catch {
      preview = null;
    }
    if (!preview) {
      // Nothing to map (empty or unreadable): the file is queued as it is.
      mappingOpen.current = false;
      commit(updateEntry(entriesRef.current, entry.id, { status: 'queued' }));
      latest.current.props.onAdded?.(entry.file);
      void openNextMapping();
      return;
    }
    setMapping({
      id: entry.id,
      name: entry.file.name,
      preview,
      map: initialHeaderMap(preview.header, expected),
      saving: false,
    });
  };

  const closeMapping = () => {
    mappingOpen.current = false;
    setMapping(null);
    void openNextMapping();
  };

  const saveMapping = async () => {
    if (!mapping) return;
    const entry = entriesRef.current.find((e) => e.id === mapping.id);
    if (!entry) return closeMapping();
    setMapping({ ...mapping, saving: true });
    try {
      const text = await entry.file.text();
      const rebuilt = new File([rebuildCsv(text, mapping.map)], entry.file.name, {
        type: 'text/csv',
        lastModified: Date.now(),
      });
      commit(updateEntry(entriesRef.current, entry.id, { file: rebuilt, status: 'queued' }));
      latest.current.props.onAdded?.(rebuilt);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      commit(entriesRef.current.filter((e) => e.id !== entry.id));
      setAlerts([message]);
      latest.current.props.onError?.(entry.file, message, err);
    }
    closeMapping();
  };

  const cancelMapping = () => {
    if (mapping) commit(entriesRef.current.filter((e) => e.id !== mapping.id));
    closeMapping();
  };

  const addFiles = (files: File[]) => {
    if (disabled || files.length === 0) return;
    const p = latest.current.props;
    const needsMapping = (f: File) => Boolean(p.expectedHeaders?.length) && isCsvName(f.name);
    const result = admitFiles(
      entriesRef.current,
      files,
      {
        types: p.accept,
        maxMb: p.maxFileSizeMb ?? UPLOAD_MAX_MB,
        maxFiles: p.maxFiles ?? UPLOAD_MAX_FILES,
        needsMapping,
      },
      () => ++idSeq.current,
    );
    commit(result.next);
    const messages = result.rejected.map(({ file, rejection }) => {
      const message = rejectionText(rejection);
      p.onError?.(file, message);
      return message;
    });
    setAlerts([...new Set(messages)]);
    for (const old of result.replaced) {
      setThumb(old.id, null);
      p.onRemoved?.(old.file);
    }
    for (const entry of result.added) {
      if (thumbnails && isImage(entry.file.name, entry.file.type))
        setThumb(entry.id, URL.createObjectURL(entry.file));
      if (entry.status === 'queued') p.onAdded?.(entry.file);
    }
    if (result.added.some((e) => e.status === 'mapping')) void openNextMapping();
    else if (p.autoProcess && nextQueued(entriesRef.current)) void process();
  };

  const remove = (entryId: number) => {
    const entry = entriesRef.current.find((e) => e.id === entryId);
    if (!entry || entry.status === 'uploading') return;
    commit(entriesRef.current.filter((e) => e.id !== entryId));
    setThumb(entryId, null);
    latest.current.props.onRemoved?.(entry.file);
  };

  useImperativeHandle(ref, () => ({
    process,
    removeAll: () => {
      for (const e of entriesRef.current)
        if (e.status !== 'uploading' && e.status !== 'mapping') remove(e.id);
    },
    queued: () => entriesRef.current.filter((e) => e.status === 'queued').map((e) => e.file),
  }));

  // A new processSignal value starts processing.
  const lastSignal = useRef(processSignal);
  const onSignal = useEffectEvent(() => void process());
  useEffect(() => {
    if (processSignal === lastSignal.current) return;
    lastSignal.current = processSignal;
    if (processSignal) onSignal();
  }, [processSignal]);

  const openPicker = () => {
    if (!disabled) inputRef.current?.click();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openPicker();
    }
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    addFiles([...e.dataTransfer.files]);
  };

  const types = normalizeTypes(accept);
  const dropText = label ?? t('upload.dropHere');
  const statusOf = (e: Entry) => {
    switch (e.status) {
      case 'queued':
        return null;
      case 'mapping':
        return <span>{t('upload.mapHeaders')}</span>;
      case 'uploading':
        return (
          <span>
            <Spin size="small" /> {t('upload.uploading')}
          </span>
        );
      case 'success':
        return (
          <span style={{ color: token.colorSuccess }}>
            <CheckCircleFilled aria-hidden /> {t('upload.importedSuccessfully')}
          </span>
        );
      case 'error':
        return (
          <span style={{ color: token.colorError }}>
            <CloseCircleFilled aria-hidden /> {e.message}
          </span>
        );
      default:
        return null;
    }
  };
  const hasQueued = entries.some((e) => e.status === 'queued');
  const busy = entries.some((e) => e.status === 'uploading');

  return (
    <div data-testid={testId}>
      <div
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled || undefined}
        aria-label={dropText}
        aria-describedby={types.length ? hintId : undefined}
        data-testid={`${testId}-drop`}
        onClick={openPicker}
        onKeyDown={onKeyDown}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          border: `1px dashed ${dragging ? token.colorPrimary : token.colorBorder}`,
          borderRadius: token.borderRadiusLG,
          background: dragging ? token.colorPrimaryBg : token.colorFillAlter,
          padding: 16,
          textAlign: 'center',
          cursor: disabled ? 'not-allowed' : 'pointer',
          opacity: disabled ? 0.6 : 1,
        }}
      >
        <InboxOutlined aria-hidden style={{ fontSize: 32, color: token.colorPrimary }} />
        <div>{dropText}</div>
        {types.length > 0 && (
          <div id={hintId} style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>
            {types.map((x) => `.${x}`).join(', ')}
          </div>
        )}
      </div>
      <input
        ref={inputRef}
        id={id}
        type="file"
        aria-label={dropText}
        data-testid={`${testId}-input`}
        multiple={maxFiles > 1}
        accept={acceptAttribute(accept) || undefined}
        disabled={disabled}
        tabIndex={-1}
        style={{ display: 'none' }}
        onChange={(e) => {
          addFiles([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {alerts.length > 0 && (
        <div data-testid={`${testId}-alert`} style={{ marginTop: 8 }}>
          {alerts.map((m) => (
            <Alert
              key={m}
              type="error"
              showIcon
              title={m}
              closable={{
                onClose: () => setAlerts((a) => a.filter((x) => x !== m)),
                'aria-label': t('common.close'),
              }}
              style={{ marginBottom: 4 }}
            />
          ))}
        </div>
      )}
      {entries.length > 0 && (
        <ul
          aria-live="polite"
          data-testid={`${testId}-files`}
          style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}
        >
          {entries.map((e) => {
            const thumb = thumbs.get(e.id);
            return (
              <li
                key={e.id}
                data-testid={`${testId}-file`}
                data-status={e.status}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 12,
                  padding: '6px 0',
                  borderBottom: `1px solid ${token.colorSplit}`,
                }}
              >
                {thumb && (
                  <img
                    src={thumb}
                    alt={e.file.name}
                    width={UPLOAD_THUMBNAIL.width}
                    height={UPLOAD_THUMBNAIL.height}
                    data-testid={`${testId}-thumb`}
                    style={{ objectFit: 'cover', borderRadius: token.borderRadius }}
                  />
                )}
                <div style={{ flex: 1, minWidth: 0 }}>
                  <div
                    data-testid={`${testId}-file-name`}
                    style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {e.file.name}
                  </div>
                  <div style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>
                    {formatSize(e.file.size)}
                  </div>
                  <div data-testid={`${testId}-file-status`}>{statusOf(e)}</div>
                </div>
                <Button
                  type="text"
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={`${t('common.delete')} ${e.file.name}`}
                  data-testid={`${testId}-remove`}
                  disabled={e.status === 'uploading' || e.status === 'mapping'}
                  onClick={() => remove(e.id)}
                />
              </li>
            );
          })}
        </ul>
      )}
      {showStartButton && (
        <Button
          type="primary"
          style={{ marginTop: 8 }}
          disabled={disabled || !hasQueued}
          loading={busy}
          data-testid={`${testId}-start`}
          onClick={() => void process()}
        >
          {t('upload.start')}
        </Button>
      )}
      <Modal
        open={mapping !== null}
        width={HEADER_MODAL_WIDTH}
        title={t('upload.mapHeaders')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        onOk={() => void saveMapping()}
        onCancel={cancelMapping}
        okButtonProps={{ loading: mapping?.saving, 'data-testid': `${testId}-mapping-save` }}
        cancelButtonProps={{ 'data-testid': `${testId}-mapping-cancel` }}
        destroyOnHidden
        mask={{ closable: false }}
      >
        {mapping && (
          <HeaderMapping
            mapping={mapping}
            expected={props.expectedHeaders ?? []}
            testId={testId}
            onChoose={(position, header) =>
              setMapping({ ...mapping, map: chooseHeader(mapping.map, position, header) })
            }
          />
        )}
      </Modal>
    </div>
  );
}

/** The header dialog's body: one select per column over the first rows of the file. */
function HeaderMapping({
  mapping,
  expected,
  testId,
  onChoose,
}: {
  mapping: Mapping;
  expected: readonly string[];
  testId: string;
  onChoose: (position: number, header: string) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const captionId = useId();
  const rows = mappedPreview(mapping.preview, mapping.map);
  const cell = {
    padding: '4px 6px',
    border: `1px solid ${token.colorSplit}`,
    whiteSpace: 'nowrap' as const,
    verticalAlign: 'top' as const,
  };
  return (
    <div data-testid={`${testId}-mapping`}>
      <p style={{ marginTop: 0 }}>
        <b>{mapping.name}</b>
        <br />
        <span style={{ color: token.colorTextSecondary }}>{t('upload.duplicateHeader')}</span>
      </p>
      <div style={{ overflowX: 'auto' }}>
        <table
          aria-describedby={captionId}
          style={{ borderCollapse: 'collapse', fontSize: token.fontSizeSM }}
        >
          <caption id={captionId} style={{ captionSide: 'top', textAlign: 'left', paddingBottom: 4 }}>
            {t('upload.preview')}
          </caption>
          <thead>
            <tr>
              {mapping.map.headers.map((header, p) => {
                const options = [...new Set([...expected, header])].map((h) => ({ value: h, label: h }));
                const original = mapping.preview.header[mapping.map.source[p] ?? p] ?? '';
                return (
                  <th key={p} scope="col" style={{ ...cell, minWidth: 140, textAlign: 'left' }}>
                    <Select<string>
                      value={header}
                      options={options}
                      onChange={(h) => onChoose(p, h)}
                      showSearch
                      aria-label={`${t('upload.column')} ${p + 1}: ${t('upload.expected')}`}
                      data-testid={`${testId}-header-select`}
                      style={{ width: '100%' }}
                      size="small"
                    />
                    <div style={{ fontWeight: 'normal', color: token.colorTextSecondary, marginTop: 2 }}>
                      {t('upload.column')} {(mapping.map.source[p] ?? p) + 1}
                      {original ? `: ${original}` : ''}
                    </div>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid={`${testId}-mapping-row`}>
                {r.map((v, c) => (
                  <td key={c} style={cell}>
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
