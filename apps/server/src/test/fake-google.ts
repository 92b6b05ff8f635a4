import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A fake Google for tests, over real HTTP: the OAuth 2.0 consent page (which consents at once),
 * the token endpoint (authorization code with PKCE S256, refresh, revoke) and the Forms API v1
 * (create, batchUpdate, get). Like Google, it refuses what the API refuses: unknown fields,
 * fields create does not copy, requests that set no kind or two, a missing update mask, item
 * locations out of range, choice questions without options or with duplicate ones, grading on
 * a form that is not a quiz, feedback where Google allows none (general feedback on choice
 * questions, right/wrong feedback elsewhere), answer keys that are not options. A batch is
 * applied whole or not at all. The field names follow Google's discovery document of the API.
 */

type Json = Record<string, unknown>;

/** The fields each message type of the Forms API may carry (its discovery document). */
const MESSAGES: Record<string, Record<string, string>> = {
  Form: { info: 'Info', items: '[Item', settings: 'FormSettings' },
  BatchUpdateFormRequest: {
    includeFormInResponse: 'boolean',
    requests: '[Request',
    writeControl: 'WriteControl',
  },
  WriteControl: { requiredRevisionId: 'string', targetRevisionId: 'string' },
  Request: {
    createItem: 'CreateItemRequest',
    deleteItem: 'DeleteItemRequest',
    moveItem: 'MoveItemRequest',
    updateFormInfo: 'UpdateFormInfoRequest',
    updateItem: 'UpdateItemRequest',
    updateSettings: 'UpdateSettingsRequest',
  },
  CreateItemRequest: { item: 'Item', location: 'Location' },
  DeleteItemRequest: { location: 'Location' },
  MoveItemRequest: { originalLocation: 'Location', newLocation: 'Location' },
  UpdateItemRequest: { item: 'Item', location: 'Location', updateMask: 'string' },
  UpdateFormInfoRequest: { info: 'Info', updateMask: 'string' },
  UpdateSettingsRequest: { settings: 'FormSettings', updateMask: 'string' },
  Location: { index: 'integer' },
  Info: { title: 'string', description: 'string', documentTitle: 'string' },
  FormSettings: { quizSettings: 'QuizSettings' },
  QuizSettings: { isQuiz: 'boolean' },
  Item: {
    itemId: 'string',
    title: 'string',
    description: 'string',
    questionItem: 'QuestionItem',
    questionGroupItem: 'QuestionGroupItem',
    pageBreakItem: 'Empty',
    textItem: 'Empty',
    imageItem: 'Json',
    videoItem: 'Json',
  },
  QuestionItem: { question: 'Question', image: 'Json' },
  QuestionGroupItem: { questions: '[Question', grid: 'Json', image: 'Json' },
  Question: {
    questionId: 'string',
    required: 'boolean',
    grading: 'Grading',
    choiceQuestion: 'ChoiceQuestion',
    textQuestion: 'TextQuestion',
    scaleQuestion: 'Json',
    dateQuestion: 'Json',
    timeQuestion: 'Json',
    fileUploadQuestion: 'Json',
    rowQuestion: 'Json',
    ratingQuestion: 'Json',
  },
  Grading: {
    pointValue: 'integer',
    correctAnswers: 'CorrectAnswers',
    whenRight: 'Feedback',
    whenWrong: 'Feedback',
    generalFeedback: 'Feedback',
  },
  CorrectAnswers: { answers: '[CorrectAnswer' },
  CorrectAnswer: { value: 'string' },
  Feedback: { text: 'string', material: '[Json' },
  ChoiceQuestion: { type: 'string', options: '[Option', shuffle: 'boolean' },
  Option: {
    value: 'string',
    isOther: 'boolean',
    goToAction: 'string',
    goToSectionId: 'string',
    image: 'Json',
  },
  TextQuestion: { paragraph: 'boolean' },
  Empty: {},
};

class BadRequest extends Error {}

/** Checks a value against a message type: unknown names and wrong types are a 400. */
function check(value: unknown, type: string, path: string): void {
  if (type === 'Json') return;
  if (type.startsWith('[')) {
    if (!Array.isArray(value)) throw new BadRequest(`Invalid value at '${path}': not a list`);
    value.forEach((entry, i) => check(entry, type.slice(1), `${path}[${i}]`));
    return;
  }
  if (type === 'string' || type === 'boolean') {
    if (typeof value !== type)
      throw new BadRequest(`Invalid value at '${path}' (TYPE_${type.toUpperCase()})`);
    return;
  }
  if (type === 'integer') {
    if (!Number.isInteger(value)) throw new BadRequest(`Invalid value at '${path}' (TYPE_INT32)`);
    return;
  }
  const fields = MESSAGES[type];
  if (!fields) throw new Error(`unknown type ${type}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequest(`Invalid value at '${path}': not an object`);
  }
  for (const [name, entry] of Object.entries(value)) {
    const fieldType = fields[name];
    if (!fieldType) {
      throw new BadRequest(
        `Invalid JSON payload received. Unknown name "${name}" at '${path}': Cannot find field.`,
      );
    }
    check(entry, fieldType, path ? `${path}.${name}` : name);
  }
}

function exactlyOne(value: Json, names: string[], what: string): string {
  const set = names.filter((name) => value[name] !== undefined);
  if (set.length !== 1)
    throw new BadRequest(`${what} must set exactly one kind (found ${set.length})`);
  return set[0]!;
}

interface FakeForm {
  formId: string;
  info: { title: string; documentTitle: string; description?: string };
  settings: { quizSettings?: { isQuiz: boolean } };
  items: Json[];
  responderUri: string;
  ownerEmail: string;
}

interface Grant {
  userEmail: string;
  scopes: string[];
  refreshToken: string;
  revoked: boolean;
}

/** Applies one batchUpdate to a copy of the form; throws BadRequest like Google. */
function applyBatch(form: FakeForm, body: Json): FakeForm {
  check(body, 'BatchUpdateFormRequest', '');
  const requests = body.requests as Json[] | undefined;
  if (!requests?.length) throw new BadRequest('requests: required');
  const next: FakeForm = structuredClone(form);
  requests.forEach((request, r) => {
    const kind = exactlyOne(request, Object.keys(MESSAGES.Request!), `requests[${r}]`);
    const value = request[kind] as Json;
    if (kind === 'updateSettings') {
      if (!value.updateMask) throw new BadRequest(`requests[${r}]: updateMask is required`);
      const quiz = (value.settings as Json | undefined)?.quizSettings as Json | undefined;
      if (String(value.updateMask).split(',').includes('quizSettings.isQuiz') && quiz) {
        next.settings.quizSettings = { isQuiz: Boolean(quiz.isQuiz) };
      }
    } else if (kind === 'updateFormInfo') {
      if (!value.updateMask) throw new BadRequest(`requests[${r}]: updateMask is required`);
      const info = value.info as Json;
      for (const field of String(value.updateMask).split(',')) {
        if (field === 'documentTitle') throw new BadRequest('documentTitle cannot be updated');
        if (field === 'title' || field === 'description') {
          (next.info as Json)[field] = info[field];
        }
      }
    } else if (kind === 'createItem') {
      const index = (value.location as Json | undefined)?.index;
      if (typeof index !== 'number' || index < 0 || index > next.items.length) {
        throw new BadRequest(
          `requests[${r}]: location.index out of range [0, ${next.items.length}]`,
        );
      }
      const item = value.item as Json | undefined;
      if (!item) throw new BadRequest(`requests[${r}]: item is required`);
      checkItem(
        item,
        Boolean(next.settings.quizSettings?.isQuiz),
        `requests[${r}].createItem.item`,
      );
      next.items.splice(index, 0, { itemId: randomBytes(4).toString('hex'), ...item });
    } else {
      throw new BadRequest(`${kind} is not used by this fake`);
    }
  });
  return next;
}

function checkItem(item: Json, isQuiz: boolean, path: string): void {
  const kind = exactlyOne(
    item,
    ['questionItem', 'questionGroupItem', 'pageBreakItem', 'textItem', 'imageItem', 'videoItem'],
    path,
  );
  if (typeof item.title === 'string' && /[\r\n]/.test(item.title)) {
    throw new BadRequest(`${path}.title: titles cannot contain newlines`);
  }
  if (kind !== 'questionItem') return;
  const question = (item.questionItem as Json).question as Json | undefined;
  if (!question) throw new BadRequest(`${path}.questionItem.question is required`);
  const qKind = exactlyOne(
    question,
    [
      'choiceQuestion',
      'textQuestion',
      'scaleQuestion',
      'dateQuestion',
      'timeQuestion',
      'ratingQuestion',
    ],
    `${path}.questionItem.question`,
  );
  let values: string[] = [];
  if (qKind === 'choiceQuestion') {
    const choice = question.choiceQuestion as Json;
    if (!['RADIO', 'CHECKBOX', 'DROP_DOWN'].includes(String(choice.type))) {
      throw new BadRequest(`${path}: choiceQuestion.type is required`);
    }
    values = ((choice.options as Json[] | undefined) ?? []).map((o) => String(o.value ?? ''));
    if (!values.length) throw new BadRequest(`${path}: options are required`);
    if (values.some((v) => !v.trim()))
      throw new BadRequest(`${path}: option values cannot be empty`);
    if (values.some((v) => /[\r\n]/.test(v))) throw new BadRequest(`${path}: options are one line`);
    if (new Set(values).size !== values.length)
      throw new BadRequest(`${path}: duplicate option values`);
  }
  const grading = question.grading as Json | undefined;
  if (!grading) return;
  if (!isQuiz) throw new BadRequest(`${path}: grading can only be set on a quiz`);
  if (!Number.isInteger(grading.pointValue) || (grading.pointValue as number) < 0) {
    throw new BadRequest(`${path}: grading.pointValue is required and must not be negative`);
  }
  const answers =
    ((grading.correctAnswers as Json | undefined)?.answers as Json[] | undefined) ?? [];
  const paragraph = qKind === 'textQuestion' && (question.textQuestion as Json).paragraph === true;
  if (qKind === 'choiceQuestion') {
    if (!answers.length)
      throw new BadRequest(`${path}: a graded choice question needs its answer key`);
    for (const answer of answers) {
      if (!values.includes(String(answer.value))) {
        throw new BadRequest(
          `${path}: the correct answer "${String(answer.value)}" is not an option`,
        );
      }
    }
    if (grading.generalFeedback) {
      throw new BadRequest(
        `${path}: general feedback cannot be set for automatically graded choice questions`,
      );
    }
  } else {
    if (grading.whenRight || grading.whenWrong) {
      throw new BadRequest(
        `${path}: right/wrong feedback is only for choice questions with correct answers`,
      );
    }
    if (paragraph && answers.length)
      throw new BadRequest(`${path}: paragraph questions have no answer key`);
  }
}

export class FakeGoogle {
  server: Server | undefined;
  base = '';
  readonly clientId = 'test-client.apps.googleusercontent.com';
  readonly clientSecret = 'test-client-secret-123';
  /** What the next consent does: grant, refuse, or grant without the Forms scope. */
  nextConsent: 'grant' | 'deny' | 'no-forms-scope' = 'grant';
  /** The next N Forms API calls answer 500. */
  failNext = 0;
  /** The next batchUpdate is refused (400), as Google refuses a batch it cannot apply. */
  refuseNextBatch = false;
  readonly forms = new Map<string, FakeForm>();
  readonly grants = new Map<string, Grant>();
  readonly accessTokens = new Map<string, { email: string; expiresAt: number }>();
  readonly calls: string[] = [];
  private readonly codes = new Map<
    string,
    { challenge: string; redirectUri: string; scopes: string[]; email: string; used: boolean }
  >();
  private userCounter = 0;

  async start(port = 0): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Every token this fake handed out (a test checks none is stored in clear). */
  issuedTokens(): string[] {
    return [...this.accessTokens.keys(), ...[...this.grants.values()].map((g) => g.refreshToken)];
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.base);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const apiError = (status: number, message: string) =>
      send(status, {
        error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : 'ERROR' },
      });
    this.calls.push(`${request.method} ${url.pathname}`);

    if (request.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const p = url.searchParams;
      const problems = [
        p.get('client_id') !== this.clientId && 'client_id',
        p.get('response_type') !== 'code' && 'response_type',
        p.get('code_challenge_method') !== 'S256' && 'code_challenge_method',
        !/^[A-Za-z0-9_-]{43}$/.test(p.get('code_challenge') ?? '') && 'code_challenge',
        !p.get('state') && 'state',
        p.get('access_type') !== 'offline' && 'access_type',
        !(p.get('scope') ?? '').split(' ').includes('https://www.googleapis.com/auth/drive.file') &&
          'scope',
      ].filter(Boolean);
      if (problems.length) return send(400, { error: 'invalid_request', problems });
      const back = new URL(p.get('redirect_uri')!);
      back.searchParams.set('state', p.get('state')!);
      if (this.nextConsent === 'deny') {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = `code-${randomBytes(8).toString('hex')}`;
        this.userCounter += 1;
        this.codes.set(code, {
          challenge: p.get('code_challenge')!,
          redirectUri: p.get('redirect_uri')!,
          scopes:
            this.nextConsent === 'no-forms-scope'
              ? ['openid', 'email']
              : (p.get('scope') ?? '').split(' '),
          email: `teacher${this.userCounter}@school.example`,
          used: false,
        });
        back.searchParams.set('code', code);
      }
      this.nextConsent = 'grant';
      response.writeHead(302, { location: back.toString() });
      response.end();
      return;
    }

    if (request.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(raw);
      if (
        form.get('client_id') !== this.clientId ||
        form.get('client_secret') !== this.clientSecret
      ) {
        return send(401, { error: 'invalid_client' });
      }
      if (form.get('grant_type') === 'authorization_code') {
        const entry = this.codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          !entry ||
          entry.used ||
          entry.redirectUri !== form.get('redirect_uri') ||
          entry.challenge !== challenge
        ) {
          return send(400, { error: 'invalid_grant', error_description: 'Bad code or verifier' });
        }
        entry.used = true;
        const refreshToken = `1//refresh-${randomBytes(12).toString('hex')}`;
        this.grants.set(refreshToken, {
          userEmail: entry.email,
          scopes: entry.scopes,
          refreshToken,
          revoked: false,
        });
        return send(200, {
          ...this.issueAccess(entry.email),
          refresh_token: refreshToken,
          scope: entry.scopes.join(' '),
          token_type: 'Bearer',
          id_token: [
            Buffer.from('{"alg":"none"}').toString('base64url'),
            Buffer.from(JSON.stringify({ email: entry.email, email_verified: true })).toString(
              'base64url',
            ),
            '',
          ].join('.'),
        });
      }
      if (form.get('grant_type') === 'refresh_token') {
        const grant = this.grants.get(form.get('refresh_token') ?? '');
        if (!grant || grant.revoked) {
          return send(400, {
            error: 'invalid_grant',
            error_description: 'Token has been expired or revoked.',
          });
        }
        return send(200, {
          ...this.issueAccess(grant.userEmail),
          scope: grant.scopes.join(' '),
          token_type: 'Bearer',
        });
      }
      return send(400, { error: 'unsupported_grant_type' });
    }

    if (request.method === 'POST' && url.pathname === '/revoke') {
      const token = new URLSearchParams(raw).get('token') ?? '';
      const grant = this.grants.get(token);
      if (grant) grant.revoked = true;
      this.accessTokens.delete(token);
      return send(grant ? 200 : 400, {});
    }

    // The Forms API.
    const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    const access = this.accessTokens.get(bearer);
    if (!access || access.expiresAt < Date.now()) {
      return apiError(401, 'Request had invalid authentication credentials.');
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      return apiError(500, 'Internal error encountered.');
    }
    let body: Json = {};
    try {
      body = raw ? (JSON.parse(raw) as Json) : {};
    } catch {
      return apiError(400, 'Invalid JSON payload received.');
    }
    if (request.method === 'POST' && url.pathname === '/v1/forms') {
      try {
        check(body, 'Form', '');
      } catch (error) {
        return apiError(400, (error as Error).message);
      }
      const info = (body.info ?? {}) as Json;
      const extra = Object.keys(body).filter((k) => k !== 'info');
      const extraInfo = Object.keys(info).filter((k) => k !== 'title' && k !== 'documentTitle');
      if (extra.length || extraInfo.length) {
        return apiError(
          400,
          `Only info.title and info.documentTitle may be set on create (${[...extra, ...extraInfo].join(', ')})`,
        );
      }
      if (typeof info.title !== 'string' || !info.title)
        return apiError(400, 'info.title is required');
      const formId = `form-${randomBytes(10).toString('hex')}`;
      const form: FakeForm = {
        formId,
        info: { title: info.title, documentTitle: String(info.documentTitle ?? info.title) },
        settings: {},
        items: [],
        responderUri: `https://docs.google.com/forms/d/e/${formId}/viewform`,
        ownerEmail: access.email,
      };
      this.forms.set(formId, form);
      return send(200, {
        formId,
        info: form.info,
        responderUri: form.responderUri,
        revisionId: '1',
      });
    }
    const batch = /^\/v1\/forms\/([^/:]+):batchUpdate$/.exec(url.pathname);
    if (request.method === 'POST' && batch) {
      const form = this.forms.get(decodeURIComponent(batch[1]!));
      if (!form || form.ownerEmail !== access.email)
        return apiError(404, 'Requested entity was not found.');
      if (this.refuseNextBatch) {
        this.refuseNextBatch = false;
        return apiError(400, 'Invalid requests[3].createItem: the test refused it.');
      }
      try {
        this.forms.set(form.formId, applyBatch(form, body));
      } catch (error) {
        if (error instanceof BadRequest) return apiError(400, error.message);
        throw error;
      }
      return send(200, { replies: [], writeControl: { requiredRevisionId: '2' } });
    }
    const file = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'DELETE' && file) {
      const form = this.forms.get(decodeURIComponent(file[1]!));
      if (!form || form.ownerEmail !== access.email) return apiError(404, 'File not found.');
      this.forms.delete(form.formId);
      response.writeHead(204);
      response.end();
      return;
    }
    const get = /^\/v1\/forms\/([^/:]+)$/.exec(url.pathname);
    if (request.method === 'GET' && get) {
      const form = this.forms.get(decodeURIComponent(get[1]!));
      if (!form || form.ownerEmail !== access.email)
        return apiError(404, 'Requested entity was not found.');
      return send(200, form);
    }
    return apiError(404, 'Not found');
  }

  private issueAccess(email: string) {
    const token = `ya29.${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(token, { email, expiresAt: Date.now() + 3600_000 });
    return { access_token: token, expires_in: 3599 };
  }

  /** Reads a form as its owner would (forms.get), bypassing tokens. */
  form(formId: string): FakeForm | undefined {
    return this.forms.get(formId);
  }
}
