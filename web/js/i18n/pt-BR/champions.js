// pt-BR catalogue, namespace `champions` (keys are `champions.*`).
export default {
};
