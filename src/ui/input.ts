/**
 * Steps of multi-step inputs (New Report…, Change Privacy…, Filter Reports, the sorts): an
 * input box and a quick pick that can go back, start from what was typed before, and show a
 * message from the service next to the input.
 */
import * as vscode from 'vscode';

/** Returned by a step when the user pressed its Back button. */
export const BACK = Symbol('back');
export type Back = typeof BACK;

export interface TextStepOptions {
  title: string;
  step?: number;
  totalSteps?: number;
  prompt: string;
  placeholder?: string;
  /** What the box starts with (the user's earlier input when a step is shown again). */
  value: string;
  password?: boolean;
  /** Offer the Back button. */
  back?: boolean;
  /** Close when focus moves elsewhere (the views' filter); the writes' steps stay open. */
  closeOnFocusOut?: boolean;
  /** A message to show at once, e.g. the service's answer to the earlier value. */
  error?: string;
  /** Checks the value as it is typed; a message blocks Enter. */
  validate: (value: string) => string | undefined;
  /**
   * Runs on Enter with the box busy and kept open. `isOpen` says whether the box is still there to
   * show a result (Escape closes it meanwhile).
   */
  submit?: (value: string, isOpen: () => boolean) => Promise<string | undefined>;
}

/** What both kinds of step show around their input: title, step counter, placeholder, and Back when offered. */
function frame(
  input: vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem>,
  options: { title: string; step?: number; totalSteps?: number; placeholder?: string; back?: boolean },
): void {
  input.title = options.title;
  input.step = options.step;
  input.totalSteps = options.totalSteps;
  input.placeholder = options.placeholder;
  input.buttons = options.back ? [vscode.QuickInputButtons.Back] : [];
}

/** Shows one input box step. Resolves the accepted value, {@link BACK}, or undefined when dismissed. */
export function textStep(options: TextStepOptions): Promise<string | Back | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    let result: string | Back | undefined;
    let submitting = false;
    let hidden = false;
    const finish = (): void => {
      box.dispose();
      resolve(result);
    };
    frame(box, options);
    box.prompt = options.prompt;
    box.value = options.value;
    box.password = options.password ?? false;
    box.ignoreFocusOut = !options.closeOnFocusOut;
    // The service's words are a warning, not a block: Enter may send the same value again.
    const warn = (message: string): vscode.InputBoxValidationMessage => ({
      message,
      severity: vscode.InputBoxValidationSeverity.Warning,
    });
    box.validationMessage =
      options.error !== undefined ? warn(options.error) : options.value === '' ? undefined : options.validate(options.value);

    box.onDidChangeValue((value) => {
      if (!submitting) box.validationMessage = value === '' ? undefined : options.validate(value);
    });
    box.onDidTriggerButton((button) => {
      if (button !== vscode.QuickInputButtons.Back || submitting) return;
      result = BACK;
      box.hide();
    });
    box.onDidAccept(() => {
      if (submitting) return;
      const value = box.value;
      const error = options.validate(value);
      if (error !== undefined) {
        box.validationMessage = error;
        return;
      }
      if (options.submit === undefined) {
        result = value;
        box.hide();
        return;
      }
      submitting = true;
      box.busy = true;
      box.enabled = false;
      box.validationMessage = undefined;
      options.submit(value, () => !hidden).then(
        (message) => {
          submitting = false;
          if (message === undefined) result = value;
          // Closed (Escape) while it was sent: what was sent still counts, and the service's
          // answer to it is said where it can still be read.
          if (hidden) {
            if (message !== undefined) void vscode.window.showWarningMessage(message);
            finish();
            return;
          }
          box.busy = false;
          box.enabled = true;
          if (message !== undefined) box.validationMessage = warn(message);
          else box.hide();
        },
        () => {
          // submit reports its own failures; the step ends without a value.
          submitting = false;
          if (hidden) finish();
          else box.hide();
        },
      );
    });
    box.onDidHide(() => {
      hidden = true;
      if (!submitting) finish();
    });
    box.show();
  });
}

export interface PickStepItem<T> extends vscode.QuickPickItem {
  value: T;
}

/** A quick pick step of any items (the views' sort and filter steps). */
export interface QuickPickStepOptions<T extends vscode.QuickPickItem> {
  title: string;
  step?: number;
  totalSteps?: number;
  placeholder: string;
  items: readonly T[];
  /** The item to start on (the earlier choice or the current value). */
  active?: T;
  back?: boolean;
  /** Close when focus moves elsewhere, and match typed text on descriptions too (the views' steps). */
  viewStep?: boolean;
  /** Called as the user types; may replace the items (e.g. offer the typed text). */
  onValue?: (value: string, pick: vscode.QuickPick<T>) => void;
  /** Items that arrive later (server data); the pick shows busy until then. */
  later?: Promise<(pick: vscode.QuickPick<T>) => void>;
}

/** Shows one single-choice quick pick step. Resolves the chosen item, {@link BACK}, or undefined when dismissed. */
export function quickPickStep<T extends vscode.QuickPickItem>(options: QuickPickStepOptions<T>): Promise<T | Back | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    let result: T | Back | undefined;
    let hidden = false;
    frame(pick, options);
    pick.ignoreFocusOut = !options.viewStep;
    pick.matchOnDescription = options.viewStep ?? false;
    pick.items = options.items;
    if (options.active) pick.activeItems = [options.active];
    pick.onDidTriggerButton((button) => {
      if (button !== vscode.QuickInputButtons.Back) return;
      result = BACK;
      pick.hide();
    });
    pick.onDidAccept(() => {
      result = pick.selectedItems[0] ?? pick.activeItems[0];
      if (result !== undefined) pick.hide();
    });
    pick.onDidHide(() => {
      hidden = true;
      pick.dispose();
      resolve(result);
    });
    const onValue = options.onValue;
    if (onValue) pick.onDidChangeValue((value) => onValue(value, pick));
    if (options.later) {
      pick.busy = true;
      options.later.then(
        (apply) => {
          if (hidden) return;
          apply(pick);
          pick.busy = false;
        },
        () => {
          pick.busy = false;
        },
      );
    }
    pick.show();
  });
}

export interface PickStepOptions<T> {
  title: string;
  step?: number;
  totalSteps?: number;
  placeholder: string;
  items: PickStepItem<T>[];
  /** The item to start on (the earlier choice or the current value). */
  active?: T;
  back?: boolean;
}

/** Shows one single-choice quick pick step. Resolves the chosen value, {@link BACK}, or undefined. */
export async function pickStep<T>(options: PickStepOptions<T>): Promise<T | Back | undefined> {
  const chosen = await quickPickStep({ ...options, active: options.items.find((i) => i.value === options.active) });
  return chosen === undefined || chosen === BACK ? chosen : chosen.value;
}
